package io.loadwise.node;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node made to collect garbage over and over (issue 32 item 6's thrashing node): a daemon thread that
 * every {@code periodMs} fills {@code garbageMb} of short-lived arrays and calls {@code System.gc()}, while
 * it holds {@code ballastMb} of live small objects, linked, that every full collection has to trace and move.
 * With the sweep's serial collector each {@code System.gc()} is a stop-the-world full collection of the whole
 * heap.
 *
 * <p>Why objects and not arrays: a byte array is one object with nothing to trace, so 40 MB of them cost a full
 * collection 3-5 ms on this machine (96 MB serial heap), and a node collecting every 100 ms spent 3-5 % of
 * its time in GC, which no policy needs to avoid (benchmarks/results/2026-11-28-gc-aware-pressure). 40 MB of
 * 32-byte linked objects cost 23-35 ms a collection, so a short period keeps the node collecting most of
 * the time.
 * Set on one node by {@code bench sweep --gc-pressure NODE:PERIOD_MS[:BALLAST_MB]} through {@value #PROPERTY};
 * a benchmark part, never shipped.
 */
public final class GcPressure implements Runnable {

    /** System property {@code PERIOD_MS[:BALLAST_MB]}: set, the node starts the thread. */
    public static final String PROPERTY = "loadwise.bench.gcPressure";
    /** Garbage allocated before each collection: enough to leave eden, not to fill a 96 MB heap. */
    static final int GARBAGE_MB = 8;
    private static final Logger LOG = LoggerFactory.getLogger(GcPressure.class);

    private final long periodMs;
    /** One small object of the ballast: 24 bytes with its header, and a reference to trace. */
    private static final class Link {
        final Link next;
        long payload;

        Link(Link next) {
            this.next = next;
        }
    }

    /** Bytes one {@link Link} takes on a 64-bit JVM with compressed references. */
    static final int LINK_BYTES = 24;

    private final Link ballast;
    private final int ballastMb;
    private volatile long sink;

    GcPressure(long periodMs, int ballastMb) {
        if (periodMs < 1 || ballastMb < 0) {
            throw new IllegalArgumentException(PROPERTY + ": the period must be at least 1 ms and the ballast at"
                    + " least 0 MB, got " + periodMs + " ms and " + ballastMb + " MB");
        }
        this.periodMs = periodMs;
        this.ballastMb = ballastMb;
        Link head = null;
        for (long i = (long) ballastMb * 1024 * 1024 / LINK_BYTES; i > 0; i--) {
            head = new Link(head);
        }
        this.ballast = head;
    }

    /** The pressure {@code PERIOD_MS[:BALLAST_MB]} asks for; an IllegalArgumentException naming the property otherwise. */
    static GcPressure parse(String value) {
        String[] parts = value.strip().split(":");
        try {
            if (parts.length == 1) {
                return new GcPressure(Long.parseLong(parts[0]), 0);
            }
            if (parts.length == 2) {
                return new GcPressure(Long.parseLong(parts[0]), Integer.parseInt(parts[1]));
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PROPERTY + ": expected PERIOD_MS[:BALLAST_MB], got '" + value + "'", e);
        }
        throw new IllegalArgumentException(PROPERTY + ": expected PERIOD_MS[:BALLAST_MB], got '" + value + "'");
    }

    /** Starts the thread when {@value #PROPERTY} is set; returns it, or null. */
    static Thread startIfAsked() {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.isBlank()) {
            return null;
        }
        GcPressure pressure = parse(value);
        lowerOwnPriority();
        Thread thread = new Thread(pressure, "gc-pressure");
        thread.setDaemon(true);
        thread.start();
        LOG.warn("GC pressure on: a full collection every {} ms over {} MB of ballast ({})", pressure.periodMs,
                pressure.ballastMb, PROPERTY);
        return thread;
    }

    /** The nice value the pressured node's threads take: the lowest priority. */
    static final int NICE = 19;

    /**
     * Gives every thread of this JVM the lowest CPU priority ({@value #NICE}; threads started later inherit it from
     * the thread that starts them). Why: in production a thrashing JVM burns the CPU of its own host, not that of the
     * other nodes; on the one machine of a sweep its collections took the CPU of the other nodes, the database and
     * JMeter as well, so every policy's p99 doubled even when that node served 3 % of the requests
     * (benchmarks/results/2026-11-29-gc-thrash-t30). At the lowest priority the node gets what the others leave,
     * as a node on a host of its own that is short of CPU. Linux's {@code setpriority} acts per thread, hence one
     * {@code renice} of every task. Where {@code renice} is missing or refuses, the node runs as it is and says so.
     */
    static void lowerOwnPriority() {
        List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(NICE), "-p"));
        try (java.util.stream.Stream<java.nio.file.Path> tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/task"))) {
            tasks.forEach(task -> command.add(task.getFileName().toString()));
            Process renice = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (renice.waitFor() != 0) {
                LOG.warn("GC pressure: renice exited {}; the node keeps its CPU priority", renice.exitValue());
            }
        } catch (java.io.IOException e) {
            LOG.warn("GC pressure: could not lower the node's CPU priority ({}); it keeps it", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        while (!Thread.currentThread().isInterrupted()) {
            List<byte[]> garbage = new ArrayList<>();
            for (int i = 0; i < GARBAGE_MB; i++) {
                garbage.add(new byte[1024 * 1024]);
            }
            sink += garbage.size() + (ballast == null ? 0 : ballast.payload); // keeps both reachable until here
            System.gc();
            try {
                Thread.sleep(periodMs);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
