package io.loadwise.capacity.measure;

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
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Drives a real HTTP server whose capacity is known: two worker threads, each holding a request for
 * 20 ms, so μ = 2 / 20 ms = 100 req/s. The 20 ms is the node's service time, not a synchronisation
 * wait.
 */
class ServiceRateMeterTest {

    private static final long SERVICE_NANOS = 20_000_000L;

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
        URI uri = start(2);
        ServiceRateMeter meter = new ServiceRateMeter(Duration.ofMillis(600), 16, 0.05, Duration.ofSeconds(5));
        ServiceRateMeter.Measurement m = meter.measure(uri);

        assertTrue(m.saturated(), "throughput must flatten before concurrency 16: " + m.steps());
        assertTrue(m.serviceRate() > 80 && m.serviceRate() <= 101, "μ = " + m.serviceRate() + " req/s, expected ≈ 100");
        ServiceRateMeter.Step first = m.steps().get(0);
        assertEquals(1, first.concurrency());
        // one worker at a time sees one thread: about half the capacity, response ≈ service time
        assertTrue(first.throughput() < 0.6 * m.serviceRate(), m.steps().toString());
        assertTrue(first.meanResponseMillis() >= 20, "mean response " + first.meanResponseMillis());
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

    private URI start(int threads) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        workers = Executors.newFixedThreadPool(threads);
        server.setExecutor(workers);
        server.createContext("/work", exchange -> {
            long until = System.nanoTime() + SERVICE_NANOS;
            for (long left = SERVICE_NANOS; left > 0; left = until - System.nanoTime()) {
                LockSupport.parkNanos(left); // the node's service time
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
