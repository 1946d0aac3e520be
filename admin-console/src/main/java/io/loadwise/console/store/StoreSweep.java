package io.loadwise.console.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass over the store directory: measures what it uses, and deletes what is past its retention.
 *
 * <p>A store whose cluster or node no longer exists is deleted once it has not been written for the
 * retention period. Its last write is the file's modification time (the writer writes every live store
 * every second, and the memory-mapped file's time follows within the minute), which also holds across
 * restarts: at start, the stores of clusters and nodes removed from the configuration while the
 * dispatcher was down go as soon as their last write is that old. A cluster or node that comes back
 * within the period finds its store and its history. Files moved aside as corrupt go after the same
 * period (counted from the move); a {@code .partial} left by a crash during a creation or a rewrite is
 * removed at once.
 */
final class StoreSweep {

    private static final Logger log = LoggerFactory.getLogger(MetricStores.class);

    /** The store of a removed cluster or node, kept until {@code deleteAtMillis}. */
    record Pending(StoreKey key, long lastWrittenMillis, long deleteAtMillis) {
    }

    /** What the pass found after deleting. */
    record Result(long usedBytes, int storeCount, List<Pending> pending, List<StoreKey> deleted) {
    }

    private StoreSweep() {
    }

    /**
     * @param close closes a store that is about to be deleted, if it is open
     */
    static Result run(Path root, Set<StoreKey> live, long nowMillis, long retentionMillis, Consumer<StoreKey> close)
            throws IOException {
        long used = 0;
        int stores = 0;
        List<Pending> pending = new ArrayList<>();
        List<StoreKey> deleted = new ArrayList<>();
        for (Path file : files(root)) {
            String name = file.getFileName().toString();
            long size = sizeOf(file);
            StoreKey key = keyOf(root, file);
            if (name.endsWith(".partial")) {
                delete(file);
                log.info("removed {}, left by an interrupted store creation", file);
            } else if (name.contains(".corrupt-") && nowMillis - modified(file) >= retentionMillis) {
                delete(file);
                log.info("removed {}, set aside as unreadable more than the retention period ago", file);
            } else if (key != null && !live.contains(key)) {
                long lastWritten = Math.max(modified(file), modified(JournaledBackend.journalOf(file)));
                if (nowMillis - lastWritten >= retentionMillis) {
                    close.accept(key);
                    // The journal sorts after its store, so it has not been counted yet (and now counts 0).
                    delete(file);
                    delete(JournaledBackend.journalOf(file));
                    deleted.add(key);
                    log.info("deleted the metric store of {}: it no longer exists and was last written {}", key,
                            Instant.ofEpochMilli(lastWritten));
                } else {
                    pending.add(new Pending(key, lastWritten, lastWritten + retentionMillis));
                    used += size;
                    stores++;
                }
            } else {
                used += size;
                stores += key == null ? 0 : 1;
            }
        }
        removeEmptyDirectories(root);
        pending.sort(Comparator.comparingLong(Pending::deleteAtMillis));
        return new Result(used, stores, pending, deleted);
    }

    /** Bytes of every file under {@code root} and the number of stores, deleting nothing. */
    static Result measure(Path root) throws IOException {
        long used = 0;
        int stores = 0;
        for (Path file : files(root)) {
            used += sizeOf(file);
            stores += keyOf(root, file) == null ? 0 : 1;
        }
        return new Result(used, stores, List.of(), List.of());
    }

    /** The store a file is ({@code <cluster>/cluster.rrd}, {@code <cluster>/nodes/<node>.rrd}), or {@code null}. */
    static StoreKey keyOf(Path root, Path file) {
        Path relative = root.relativize(file);
        String name = file.getFileName().toString();
        if (!name.endsWith(".rrd")) {
            return null;
        }
        StoreKey key = null;
        if (relative.getNameCount() == 2 && name.equals("cluster.rrd")) {
            key = StoreKey.cluster(relative.getName(0).toString());
        } else if (relative.getNameCount() == 3 && relative.getName(1).toString().equals("nodes")) {
            key = StoreKey.node(relative.getName(0).toString(), name.substring(0, name.length() - ".rrd".length()));
        }
        return key != null && file.equals(key.file(root)) ? key : null;
    }

    private static List<Path> files(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isRegularFile).sorted().toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static long sizeOf(Path file) throws IOException {
        try {
            return Files.size(file);
        } catch (NoSuchFileException e) {
            return 0;
        }
    }

    private static long modified(Path file) throws IOException {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (NoSuchFileException e) {
            return Long.MIN_VALUE;
        }
    }

    private static void delete(Path file) throws IOException {
        Files.deleteIfExists(file);
    }

    /** Removes {@code nodes/} and cluster directories left empty (deepest first), never the root. */
    private static void removeEmptyDirectories(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return;
        }
        List<Path> dirs;
        try (Stream<Path> all = Files.walk(root, 2)) {
            dirs = all.filter(Files::isDirectory).filter(d -> !d.equals(root))
                    .sorted(Comparator.comparingInt(Path::getNameCount).reversed()).toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        for (Path dir : dirs) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isEmpty()) {
                    Files.delete(dir);
                }
            }
        }
    }
}
