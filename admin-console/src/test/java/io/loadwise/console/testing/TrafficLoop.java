package io.loadwise.console.testing;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Requests through an HTTP cluster from a background thread, one after another, until stopped or a time
 * bound passes; counts successes and failures (anything but 200 from a node).
 */
public final class TrafficLoop implements AutoCloseable {

    private final AtomicLong succeeded = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<String> lastError = new AtomicReference<>();
    private volatile boolean running = true;
    private final Thread thread;

    private TrafficLoop(InetSocketAddress listener, Duration bound) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        URI uri = URI.create("http://127.0.0.1:" + listener.getPort() + "/traffic");
        long deadline = System.nanoTime() + bound.toNanos();
        thread = new Thread(() -> {
            while (running && System.nanoTime() - deadline < 0) {
                try {
                    HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 200 && r.body().startsWith("node ")) {
                        succeeded.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                        lastError.set(r.statusCode() + " " + r.body());
                    }
                } catch (Exception e) {
                    failed.incrementAndGet();
                    lastError.set(e.toString());
                }
            }
        }, "traffic-loop");
        thread.setDaemon(true);
    }

    public static TrafficLoop start(InetSocketAddress listener, Duration bound) {
        TrafficLoop loop = new TrafficLoop(listener, bound);
        loop.thread.start();
        return loop;
    }

    /** Waits (up to 20 s) until at least {@code count} requests have succeeded. */
    public void awaitRequests(long count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (succeeded.get() < count) {
            if (System.nanoTime() - deadline > 0 || !thread.isAlive()) {
                throw new AssertionError("traffic: only " + succeeded.get() + " of " + count
                        + " requests succeeded; failures " + failed.get() + ", last: " + lastError.get());
            }
            LockSupport.parkNanos(10_000_000L);
        }
    }

    public long succeeded() {
        return succeeded.get();
    }

    public long failed() {
        return failed.get();
    }

    public String lastError() {
        return lastError.get();
    }

    public void stop() throws InterruptedException {
        running = false;
        thread.join(15_000);
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
