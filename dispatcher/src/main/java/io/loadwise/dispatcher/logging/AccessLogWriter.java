package io.loadwise.dispatcher.logging;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Takes access records off the event loops: {@link #offer} never blocks (a full queue drops the record and counts
 * it), and one daemon thread formats each record and hands the line to {@code sink} (the logback logger, whose
 * appender writes and rotates the file on this thread).
 */
final class AccessLogWriter {

    static final int CAPACITY = 8_192;

    private final BlockingQueue<AccessRecord> queue;
    private final LongAdder dropped = new LongAdder();
    private final Consumer<String> sink;
    private volatile AccessLineFormat format;

    AccessLogWriter(int capacity, AccessLineFormat format, Consumer<String> sink) {
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.format = format;
        this.sink = sink;
    }

    /** Starts the writer thread. */
    AccessLogWriter start() {
        Thread thread = new Thread(this::run, "loadwise-access-log");
        thread.setDaemon(true); // a record still queued at exit is lost, as one in an appender's buffer would be
        thread.start();
        return this;
    }

    void format(AccessLineFormat format) {
        this.format = format;
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

    private void run() {
        StringBuilder line = new StringBuilder(512);
        while (true) {
            AccessRecord record;
            try {
                record = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            line.setLength(0);
            try {
                format.append(record, line);
                sink.accept(line.toString());
            } catch (RuntimeException e) { // one bad record must not stop the log
                dropped.increment();
            }
        }
    }
}
