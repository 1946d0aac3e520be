package io.loadwise.sim.workload;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads the binary format of the 1998 World Cup logs (ITA, {@code wc_dayX_Y.gz}): fixed 20-byte
 * big-endian records {@code uint32 timestamp, clientID, objectID, size; uint8 method, status, type,
 * server}, plain or gzipped.
 *
 * <p>{@code type} 6 (DYNAMIC, a URL with a parameter list, in the tools' order HTML, IMAGE, AUDIO,
 * VIDEO, JAVA, FORMATTED, DYNAMIC, …) marks dynamic requests. The low 6 bits of {@code status} index the
 * tools' status-code list (100, 101, 200-206, 300-305, 400-415, 500-505); records with a 4xx/5xx status
 * are left out and counted, as seed 004 filtered its trace. Timestamps are whole seconds and are spread
 * within their second.
 */
public final class WorldCupTraceReader {

    static final int RECORD_BYTES = 20;
    static final int TYPE_DYNAMIC = 6;
    /** Index of the first 4xx code in the tools' status list. */
    static final int FIRST_ERROR_STATUS_INDEX = 15;
    static final int STATUS_CODES = 37;

    private WorldCupTraceReader() {
    }

    public static LoadedTrace read(Path file) throws IOException {
        try (InputStream in = AccessLogReader.open(file)) {
            return read(in, file.toString());
        }
    }

    public static LoadedTrace read(InputStream raw, String name) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16));
        long[] seconds = new long[1024];
        long[] sizes = new long[1024];
        boolean[] dynamic = new boolean[1024];
        int n = 0;
        long records = 0;
        long excluded = 0;
        long malformed = 0;
        String firstMalformed = null;
        byte[] record = new byte[RECORD_BYTES];
        while (true) {
            int read = in.readNBytes(record, 0, RECORD_BYTES);
            if (read == 0) {
                break;
            }
            if (read < RECORD_BYTES) {
                throw new EOFException(name + ": truncated record at byte " + records * RECORD_BYTES
                        + " (" + read + " of " + RECORD_BYTES + " bytes); is this a World Cup binary log?");
            }
            records++;
            long timestamp = u32(record, 0);
            long size = u32(record, 12);
            int statusIndex = record[17] & 0x3F;
            int type = record[18] & 0xFF;
            if (statusIndex >= STATUS_CODES) {
                malformed++;
                if (firstMalformed == null) {
                    firstMalformed = name + " record " + (records - 1) + ": status index " + statusIndex
                            + " is outside the format's code list";
                }
                continue;
            }
            if (statusIndex >= FIRST_ERROR_STATUS_INDEX) {
                excluded++;
                continue;
            }
            if (n == seconds.length) {
                seconds = Arrays.copyOf(seconds, n * 2);
                sizes = Arrays.copyOf(sizes, n * 2);
                dynamic = Arrays.copyOf(dynamic, n * 2);
            }
            seconds[n] = timestamp;
            sizes[n] = size;
            dynamic[n] = type == TYPE_DYNAMIC;
            n++;
        }
        if (n == 0) {
            throw new IllegalArgumentException(name + ": no usable requests in " + records + " records");
        }
        return new LoadedTrace(AccessLogReader.sortAndSpread(seconds, sizes, dynamic, n, "World Cup 98 log " + name),
                malformed, firstMalformed, excluded);
    }

    private static long u32(byte[] b, int off) {
        return ((b[off] & 0xFFL) << 24) | ((b[off + 1] & 0xFFL) << 16) | ((b[off + 2] & 0xFFL) << 8) | (b[off + 3] & 0xFFL);
    }
}
