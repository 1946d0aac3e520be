package io.loadwise.node;

import io.loadwise.node.process.ChildJvm;
import io.loadwise.node.tomcat.TradeNodeServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A node running in its own JVM, started by {@link NodeLauncher#startNode}. {@link #close()} stops
 * it (SIGTERM, then a kill after a grace period) together with anything it spawned.
 */
public final class NodeProcess implements AutoCloseable {

    private static final Duration POLL_INTERVAL = Duration.ofMillis(100);

    private final NodeSpec spec;
    private final ChildJvm jvm;
    private volatile int port = -1;

    NodeProcess(NodeSpec spec, ChildJvm jvm) {
        this.spec = spec;
        this.jvm = jvm;
    }

    public NodeSpec spec() {
        return spec;
    }

    public String name() {
        return spec.name();
    }

    public long pid() {
        return jvm.pid();
    }

    public boolean isAlive() {
        return jvm.isAlive();
    }

    public Path logFile() {
        return jvm.logFile();
    }

    public List<String> logTail(int lines) throws IOException {
        return jvm.logTail(lines);
    }

    /** The bound HTTP port; known once {@link #awaitHealthy} has returned. */
    public int port() {
        if (port < 0) {
            throw new IllegalStateException("node " + name() + " has not reported its port yet: call awaitHealthy");
        }
        return port;
    }

    /** {@code http://127.0.0.1:port/trade/}, the base of the trade app's URLs. */
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + port() + TradeNodeServer.CONTEXT_PATH + "/");
    }

    /**
     * Waits until the node reported its port and {@code /trade/health} answers 200 (which needs the
     * database), or fails with the node's log tail once {@code timeout} has passed or the JVM died.
     */
    public NodeProcess awaitHealthy(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        port = ReadyLine.port(jvm.awaitReady(timeout));
        if (System.nanoTime() - deadline > 0) {
            throw new IOException("node " + name() + " reported ready only after " + timeout);
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest request = HttpRequest.newBuilder(baseUri().resolve("health")).timeout(Duration.ofSeconds(5)).build();
        String last = "no answer";
        while (true) {
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return this;
                }
                last = response.statusCode() + " " + response.body().strip();
            } catch (IOException e) {
                last = e.toString();
            }
            if (!jvm.isAlive() || System.nanoTime() - deadline > 0) {
                throw new IOException("node " + name() + " not healthy after " + timeout + " (last: " + last
                        + ", alive: " + jvm.isAlive() + ")\n" + String.join("\n", jvm.logTail(40)));
            }
            Thread.sleep(POLL_INTERVAL.toMillis());
        }
    }

    /** Asks the node to shut down (SIGTERM) without waiting; {@link #close()} then waits for it. */
    public void requestStop() {
        jvm.requestStop();
    }

    /** Stops the node JVM and its descendants; returns once they are all gone. */
    @Override
    public void close() {
        jvm.close();
    }
}
