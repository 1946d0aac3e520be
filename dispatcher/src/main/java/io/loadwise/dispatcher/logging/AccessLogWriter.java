package io.loadwise.dispatcher.logging;

import java.io.Flushable;
import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Takes access records off the event loops: {@link #offer} never blocks (a full queue drops the record and counts
 * it), and one daemon thread formats each record and hands the line to {@code sink} (the logback logger, whose
 * appender writes and rotates the file on this thread). The thread polls, sleeping {@value #IDLE_PARK_NANOS} ns
 * whenever the queue is empty after flushing what the appender buffered, so the event loops never wake it. While the
 * console watches recent requests ({@link #keepRecentFor}), the thread also copies each record into
 * {@link RecentRequests}; it ends the watch itself when the lease runs out.
 */
final class AccessLogWriter {

    static final int CAPACITY = 8_192;
    /** How long the writer sleeps when it found the queue empty, at first: a busy log's lines wait this long. */
    static final long IDLE_PARK_NANOS = 2_000_000;
    /** The longest sleep, after a quiet while: 200 wake-ups a second while the log is on and idle. */
    static final long MAX_PARK_NANOS = 5_000_000;

    private final BlockingQueue<AccessRecord> queue;
    private final LongAdder dropped = new LongAdder();
    private final Consumer<String> sink;
    /** Whether {@code sink} wants lines: false when only the console's recent requests want the records. */
    private final BooleanSupplier lineWanted;
    private final RecentRequests recent;
    private volatile boolean keepRecent;
    /** When {@link #keepRecent} ends, in {@link System#nanoTime()}; written by callers, read by the thread. */
    private volatile long keepRecentUntil;
    private volatile AccessLineFormat format;
    private volatile boolean started;
    /** Times the writer found the queue empty and flushed. */
    private volatile long flushes;
    /** Pushes what the sink buffered to the file; run whenever the queue has run dry. */
    private volatile Flushable flush = () -> { };

    AccessLogWriter(int capacity, AccessLineFormat format, Consumer<String> sink) {
        this(capacity, format, sink, () -> true, new RecentRequests(RecentRequests.CAPACITY));
    }

    AccessLogWriter(int capacity, AccessLineFormat format, Consumer<String> sink, BooleanSupplier lineWanted,
            RecentRequests recent) {
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.format = format;
        this.sink = sink;
        this.lineWanted = lineWanted;
        this.recent = recent;
    }

    /**
     * For the next {@code leaseNanos}, every record written also goes into {@link #recent()}; a later call extends
     * it. The thread turns {@link #keepsRecent()} off once the lease has run out.
     */
    void keepRecentFor(long leaseNanos) {
        keepRecentUntil = System.nanoTime() + leaseNanos;
        keepRecent = true;
    }

    /** Whether records are being kept for {@link #recent()}: a lease has not run out yet. */
    boolean keepsRecent() {
        return keepRecent;
    }

    RecentRequests recent() {
        return recent;
    }

    /** Starts the writer thread, once. */
    synchronized AccessLogWriter start() {
        if (started) {
            return this;
        }
        started = true;
        Thread thread = new Thread(this::run, "loadwise-access-log");
        thread.setDaemon(true); // a record still queued at exit is lost, as one in an appender's buffer would be
        thread.start();
        return this;
    }

    void format(AccessLineFormat format) {
        this.format = format;
    }

    /**
     * How the sink's buffered lines reach the file: run on this thread each time the queue is empty, so a busy log
     * writes in blocks (one system call per buffer, not per line) and an idle one has nothing left in memory.
     */
    void flushWith(Flushable flush) {
        this.flush = flush;
    }

    /** Queues {@code record} for writing, or drops it when the queue is full. */
    void offer(AccessRecord record) {
        if (!queue.offer(record)) {
            dropped.increment();
        }
    }

    long dropped() {
        return dropped.sum();
    }

    /**
     * Waits until every record offered before the call is written and flushed, at most {@code timeoutMillis}: two
     * empty-queue flushes after the call mean the queue was found empty after everything before it was taken.
     *
     * @return whether it was
     */
    boolean drain(long timeoutMillis) {
        if (!started) {
            return true;
        }
        long target = flushes + 2;
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (flushes < target) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(IDLE_PARK_NANOS / 2); // the writer flushes at least every MAX_PARK_NANOS
        }
        return true;
    }

    private void run() {
        StringBuilder line = new StringBuilder(512);
        long park = IDLE_PARK_NANOS;
        while (!Thread.currentThread().isInterrupted()) {
            AccessRecord record = queue.poll();
            if (record == null) {
                flush();
                if (keepRecent && System.nanoTime() - keepRecentUntil > 0) {
                    keepRecent = false; // nobody watched for a lease: event loops stop making records for the ring
                }
                flushes++; // only this thread writes it
                // Polls rather than waits in take(): an event loop's offer then never has a sleeping thread to
                // wake (a system call per request), and a busy log writes whole buffers.
                LockSupport.parkNanos(park);
                park = Math.min(park * 2, MAX_PARK_NANOS);
                continue;
            }
            park = IDLE_PARK_NANOS;
            line.setLength(0);
            try {
                if (keepRecent) {
                    recent.add(RecentRequest.of(record));
                }
                if (lineWanted.getAsBoolean()) {
                    format.append(record, line);
                    sink.accept(line.toString());
                }
            } catch (RuntimeException e) { // one bad record must not stop the log
                dropped.increment();
            }
        }
    }

    private void flush() {
        try {
            flush.flush();
        } catch (IOException | RuntimeException e) {
            // a stopped appender has no stream, and a failing one reports its own I/O errors
        }
    }
}
