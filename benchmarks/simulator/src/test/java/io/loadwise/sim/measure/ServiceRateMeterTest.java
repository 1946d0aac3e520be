package io.loadwise.sim.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Drives a real HTTP server whose capacity is known: it behaves as one FCFS server with a 10 ms service
 * time, so μ = 100 req/s. Each request's completion is scheduled on that virtual server
 * (finish = max(now, previous finish) + 10 ms) and its handler thread waits until then; because the
 * schedule, not the thread's wake-up, sets the pace, a loaded machine adds latency but cannot change
 * μ. The wait is the node's service time, not a synchronisation wait.
 */
class ServiceRateMeterTest {

    private static final long SERVICE_NANOS = 10_000_000L;

    private HttpServer server;
    private ExecutorService workers;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
            workers.shutdownNow();
        }
    }

    @Test
    void findsTheSaturationThroughputOfANodeWithKnownServiceTime() throws Exception {
        URI uri = start();
        ServiceRateMeter meter = new ServiceRateMeter(Duration.ofMillis(1000), 32, 0.05, Duration.ofSeconds(5));
        ServiceRateMeter.Measurement m = meter.measure(uri);

        assertTrue(m.saturated(), "throughput must flatten before concurrency 32: " + m.steps());
        // at most μ plus one request at each edge of the 1 s window
        assertTrue(m.serviceRate() > 85 && m.serviceRate() <= 102, "μ = " + m.serviceRate() + " req/s, expected 100; "
                + m.steps());
        ServiceRateMeter.Step first = m.steps().get(0);
        assertEquals(1, first.concurrency());
        // one request at a time leaves the server idle during every round trip
        assertTrue(first.throughput() < m.serviceRate(), m.steps().toString());
        assertTrue(first.meanResponseMillis() >= 10, "mean response " + first.meanResponseMillis());
    }

    @Test
    void aNodeThatOnlyFailsIsAnError() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        workers = Executors.newFixedThreadPool(1);
        server.setExecutor(workers);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        server.start();
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
        ServiceRateMeter meter = new ServiceRateMeter(Duration.ofMillis(200), 4, 0.05, Duration.ofSeconds(5));
        IOException e = assertThrows(IOException.class, () -> meter.measure(uri));
        assertTrue(e.getMessage().contains("HTTP status 503"), e.getMessage());
    }

    private URI start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        workers = Executors.newFixedThreadPool(48);
        server.setExecutor(workers);
        AtomicLong busyUntil = new AtomicLong(System.nanoTime());
        server.createContext("/work", exchange -> {
            long until = busyUntil.accumulateAndGet(System.nanoTime(), (prev, now) -> Math.max(prev, now) + SERVICE_NANOS);
            for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
                LockSupport.parkNanos(left); // queueing + service on the virtual FCFS server
            }
            byte[] body = "done".getBytes();
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/work");
    }
}
