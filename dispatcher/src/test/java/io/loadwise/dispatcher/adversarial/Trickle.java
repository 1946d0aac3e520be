package io.loadwise.dispatcher.adversarial;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A slow peer: writes {@code bytes} in pieces of {@code step} bytes, pausing {@code intervalMs} between
 * writes (the pause is the behaviour under test, not synchronisation), on its own thread. Stops at the
 * end, when a write fails (the other side closed) or when closed.
 */
final class Trickle implements AutoCloseable {

    private final Thread thread;
    private final CountDownLatch started = new CountDownLatch(1);
    private volatile long firstWriteNanos;
    private volatile long lastWriteNanos;
    private volatile int written;
    private volatile boolean failed;

    Trickle(String name, OutputStream out, byte[] bytes, int step, long intervalMs) {
        thread = new Thread(() -> {
            try {
                for (int at = 0; at < bytes.length; at += step) {
                    if (at > 0) {
                        Thread.sleep(intervalMs);
                    }
                    out.write(bytes, at, Math.min(step, bytes.length - at));
                    out.flush();
                    lastWriteNanos = System.nanoTime();
                    if (at == 0) {
                        firstWriteNanos = lastWriteNanos;
                        started.countDown();
                    }
                    written = Math.min(at + step, bytes.length);
                }
            } catch (IOException e) {
                failed = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                started.countDown();
            }
        }, "trickle-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    /** When the first piece went out; waits (bounded) for it. */
    long firstWriteNanos() throws InterruptedException {
        if (!started.await(5, TimeUnit.SECONDS)) {
            throw new AssertionError("the trickle did not start");
        }
        return firstWriteNanos;
    }

    long lastWriteNanos() {
        return lastWriteNanos;
    }

    int written() {
        return written;
    }

    /** A write failed: the other side closed or reset the connection. */
    boolean failed() {
        return failed;
    }

    boolean finished() {
        return !thread.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join(2_000);
    }

    static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
