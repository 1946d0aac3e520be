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
 * test sets what it reports, or makes it answer garbage. Given a shared secret, it answers 401 to a
 * request without {@code X-Loadwise-Secret: <secret>}, as the agent's {@code MetricsEndpoint} does.
 */
final class AgentEndpoint implements AutoCloseable {

    private final HttpServer server;
    private final AtomicReference<String> body = new AtomicReference<>();
    final AtomicInteger requests = new AtomicInteger();
    private final AtomicReference<String> secret = new AtomicReference<>();
    /** When not 0, every request gets this status and no body (a server whose application is not there). */
    private final AtomicInteger forcedStatus = new AtomicInteger();
    /** The {@code X-Loadwise-Secret} of the latest request, {@code ""} when it had none. */
    final AtomicReference<String> lastSecretSeen = new AtomicReference<>();

    AgentEndpoint() throws IOException {
        this(0);
    }

    /** @param port 0 for any free port, or the port of a closed endpoint to stand in for it after a restart */
    AgentEndpoint(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 16);
        server.createContext("/loadwise-agent/metrics", exchange -> {
            requests.incrementAndGet();
            int forced = forcedStatus.get();
            if (forced != 0) {
                exchange.sendResponseHeaders(forced, -1);
                exchange.close();
                return;
            }
            String presented = exchange.getRequestHeaders().getFirst("X-Loadwise-Secret");
            lastSecretSeen.set(presented == null ? "" : presented);
            String wanted = secret.get();
            if (wanted != null && !wanted.equals(presented)) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"loadwise-agent\"");
                exchange.sendResponseHeaders(401, -1);
                exchange.close();
                return;
            }
            String current = body.get();
            if (current == null) { // started, but not told what to report yet: as an agent still starting
                exchange.sendResponseHeaders(503, -1);
                exchange.close();
                return;
            }
            byte[] bytes = current.getBytes(StandardCharsets.UTF_8);
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

    /** From now on, requests must carry this secret; {@code null} opens the endpoint again. */
    void requireSecret(String wanted) {
        secret.set(wanted);
    }

    /** Answers every request with {@code status} and no body from now on; 0 goes back to the document. */
    void answerStatus(int status) {
        forcedStatus.set(status);
    }

    void reportRaw(String raw) {
        body.set(raw);
    }

    int port() {
        return server.getAddress().getPort();
    }

    String address() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
