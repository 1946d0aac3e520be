package io.loadwise.console.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;
import org.rrd4j.core.RrdBackend;

/**
 * An rrd4j backend that makes each sample all-or-nothing. rrd4j writes one sample as thousands of small
 * in-place writes (every data source's state, every archive's state and row); a process killed in the
 * middle would leave some data sources advanced and others not, and replaying that sample later shifts
 * the history of the advanced ones by a step. Here the writes of a sample are held in memory
 * ({@link #begin()}), then written as one redo record to {@code <file>.journal}, then applied to the
 * memory-mapped file, then the record is invalidated ({@link #commit()}). A store opened after a kill
 * first replays a complete record ({@link #recover(Path)}) or ignores an incomplete one, whose sample
 * never reached the file. Everything written is in the page cache at once, so this holds for a killed
 * process; against power loss the file is forced to disk every {@value #FORCE_INTERVAL_SECONDS} s.
 */
final class JournaledBackend extends RrdBackend {

    static final int FORCE_INTERVAL_SECONDS = 60;
    static final long MAGIC = 0x4C57_4A52_4E4C_0001L;
    private static final int HEADER_BYTES = 8 + 4 + 8;

    private final Path journal;
    private final FileChannel data;
    private MappedByteBuffer map;
    private FileChannel journalChannel;
    /** The current sample's writes by offset, never overlapping; {@code null} outside a sample. */
    private TreeMap<Long, byte[]> pending;
    private long lastForceNanos = System.nanoTime();

    JournaledBackend(String path, boolean readOnly) throws IOException {
        super(path);
        this.journal = journalOf(Path.of(path));
        this.data = readOnly ? FileChannel.open(Path.of(path), StandardOpenOption.READ)
                : FileChannel.open(Path.of(path), StandardOpenOption.READ, StandardOpenOption.WRITE,
                        StandardOpenOption.CREATE);
        long size = data.size();
        if (size > 0) {
            map = data.map(readOnly ? FileChannel.MapMode.READ_ONLY : FileChannel.MapMode.READ_WRITE, 0, size);
        }
    }

    static Path journalOf(Path file) {
        return file.resolveSibling(file.getFileName() + ".journal");
    }

    /** Starts holding writes back: they make up one sample. */
    void begin() {
        pending = new TreeMap<>();
    }

    /** Drops the held writes (the sample failed before any of it reached the file). */
    void rollback() {
        pending = null;
    }

    /** Journals the held writes, applies them to the file, invalidates the journal record. */
    void commit() throws IOException {
        TreeMap<Long, byte[]> writes = pending;
        pending = null;
        if (writes == null || writes.isEmpty()) {
            return;
        }
        int payload = 0;
        for (byte[] b : writes.values()) {
            payload += 8 + 4 + b.length;
        }
        ByteBuffer body = ByteBuffer.allocate(payload);
        for (Map.Entry<Long, byte[]> w : writes.entrySet()) {
            body.putLong(w.getKey()).putInt(w.getValue().length).put(w.getValue());
        }
        CRC32 crc = new CRC32();
        crc.update(body.array());
        ByteBuffer record = ByteBuffer.allocate(HEADER_BYTES + payload);
        record.putLong(MAGIC).putInt(payload).putLong(crc.getValue()).put(body.array()).flip();
        if (journalChannel == null) {
            journalChannel = FileChannel.open(journal, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        }
        writeFully(journalChannel, record, 0);
        for (Map.Entry<Long, byte[]> w : writes.entrySet()) {
            map.put(Math.toIntExact(w.getKey()), w.getValue());
        }
        writeFully(journalChannel, ByteBuffer.allocate(8), 0);
        if (System.nanoTime() - lastForceNanos > FORCE_INTERVAL_SECONDS * 1_000_000_000L) {
            map.force();
            lastForceNanos = System.nanoTime();
        }
    }

    /**
     * Replays a complete journal record of {@code file} left by a killed writer.
     *
     * @return the number of writes replayed (0 when there was nothing, or only an incomplete record)
     */
    static int recover(Path file) throws IOException {
        Path journal = journalOf(file);
        if (!Files.exists(journal)) {
            return 0;
        }
        ByteBuffer record = ByteBuffer.wrap(Files.readAllBytes(journal));
        List<long[]> where = new ArrayList<>();
        if (record.remaining() >= HEADER_BYTES && record.getLong() == MAGIC) {
            int payload = record.getInt();
            long expected = record.getLong();
            if (payload > 0 && payload <= record.remaining()) {
                CRC32 crc = new CRC32();
                crc.update(record.array(), HEADER_BYTES, payload);
                if (crc.getValue() == expected) {
                    while (record.position() < HEADER_BYTES + payload) {
                        long offset = record.getLong();
                        int length = record.getInt();
                        where.add(new long[] {offset, length, record.position()});
                        record.position(record.position() + length);
                    }
                }
            }
        }
        if (!where.isEmpty()) {
            try (FileChannel target = FileChannel.open(file, StandardOpenOption.WRITE)) {
                for (long[] w : where) {
                    writeFully(target, ByteBuffer.wrap(record.array(), (int) w[2], (int) w[1]), w[0]);
                }
            }
        }
        Files.delete(journal);
        return where.size();
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
    }

    @Override
    protected void write(long offset, byte[] b) throws IOException {
        if (pending == null) {
            map.put(Math.toIntExact(offset), b);
            return;
        }
        long end = offset + b.length;
        Map.Entry<Long, byte[]> before = pending.floorEntry(offset);
        Map.Entry<Long, byte[]> after = pending.higherEntry(offset);
        boolean touchesBefore = before != null && before.getKey() + before.getValue().length > offset;
        boolean touchesAfter = after != null && after.getKey() < end;
        if (!touchesAfter && (!touchesBefore || (before.getKey() == offset && before.getValue().length == b.length))) {
            // The usual case: a value written for the first time in this sample, or rewritten in place.
            pending.put(offset, b.clone());
            return;
        }
        long lo = offset;
        long hi = end;
        List<Map.Entry<Long, byte[]>> overlapping = new ArrayList<>();
        Map.Entry<Long, byte[]> floor = pending.floorEntry(offset);
        if (floor != null && floor.getKey() + floor.getValue().length > offset) {
            overlapping.add(floor);
        }
        overlapping.addAll(pending.subMap(offset, false, end, false).entrySet());
        if (overlapping.isEmpty()) {
            pending.put(offset, b.clone());
            return;
        }
        for (Map.Entry<Long, byte[]> e : overlapping) {
            lo = Math.min(lo, e.getKey());
            hi = Math.max(hi, e.getKey() + e.getValue().length);
        }
        byte[] merged = new byte[Math.toIntExact(hi - lo)];
        map.get(Math.toIntExact(lo), merged);
        for (Map.Entry<Long, byte[]> e : overlapping) {
            System.arraycopy(e.getValue(), 0, merged, (int) (e.getKey() - lo), e.getValue().length);
        }
        System.arraycopy(b, 0, merged, (int) (offset - lo), b.length);
        overlapping.stream().map(Map.Entry::getKey).toList().forEach(pending::remove);
        pending.put(lo, merged);
    }

    @Override
    protected void read(long offset, byte[] b) throws IOException {
        map.get(Math.toIntExact(offset), b);
        TreeMap<Long, byte[]> writes = pending;
        if (writes == null || writes.isEmpty()) {
            return;
        }
        long end = offset + b.length;
        Map.Entry<Long, byte[]> floor = writes.floorEntry(offset);
        if (floor != null) {
            overlay(floor.getKey(), floor.getValue(), offset, b);
        }
        Map.Entry<Long, byte[]> next = writes.higherEntry(offset);
        while (next != null && next.getKey() < end) {
            overlay(next.getKey(), next.getValue(), offset, b);
            next = writes.higherEntry(next.getKey());
        }
    }

    private static void overlay(long segmentStart, byte[] segment, long offset, byte[] b) {
        long from = Math.max(segmentStart, offset);
        long to = Math.min(segmentStart + segment.length, offset + b.length);
        if (from < to) {
            System.arraycopy(segment, (int) (from - segmentStart), b, (int) (from - offset), (int) (to - from));
        }
    }

    @Override
    public long getLength() throws IOException {
        return data.size();
    }

    @Override
    protected void setLength(long length) throws IOException {
        if (length > Integer.MAX_VALUE) {
            throw new IOException("store of " + length + " bytes is too large");
        }
        if (data.size() < length) {
            writeFully(data, ByteBuffer.allocate(1), length - 1);
        } else {
            data.truncate(length);
        }
        map = data.map(FileChannel.MapMode.READ_WRITE, 0, length);
    }

    @Override
    protected void close() throws IOException {
        try {
            if (map != null && !map.isReadOnly()) {
                map.force();
            }
            if (journalChannel != null) {
                journalChannel.close();
                // Every sample was applied in full: the journal holds nothing.
                Files.deleteIfExists(journal);
            }
        } finally {
            data.close();
        }
    }
}
