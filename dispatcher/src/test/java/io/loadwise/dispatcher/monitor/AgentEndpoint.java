package io.loadwise.dispatcher.monitor;

import com.sun.net.httpserver.HttpServer;
import io.loadwise.wire.MetricsJson;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real HTTP server on loopback that serves an agent metrics document, as a node agent would; the
 * test sets what it reports, or makes it answer garbage.
 */
final class AgentEndpoint implements AutoCloseable {

    private final HttpServer server;
    private final AtomicReference<String> body = new AtomicReference<>();
    final AtomicInteger requests = new AtomicInteger();

    AgentEndpoint() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.createContext("/loadwise-agent/metrics", exchange -> {
            requests.incrementAndGet();
            byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    void report(Map<String, Double> metrics) {
        body.set(MetricsJson.encode(System.currentTimeMillis(), metrics, Map.of("jvm", "test")));
    }

    void reportRaw(String raw) {
        body.set(raw);
    }

    String address() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
