package io.loadwise.node.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.node.DatabaseProcess;
import io.loadwise.node.NodeLauncher;
import io.loadwise.node.NodeOptions;
import io.loadwise.node.TradeClient;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node whose scenario requests hold their JDBC connection ({@code --jdbc-hold-ms}) and whose pool waits only
 * briefly ({@code --jdbc-max-wait-ms}): with one connection, a request that arrives while another holds it waits
 * for the pool's longest wait and is answered 503, which the node's log names.
 */
class HeldJdbcConnectionTest {

    private static final long HOLD_MS = 1_500;
    private static final long MAX_WAIT_MS = 150;

    @TempDir
    Path work;

    @Test
    void aRequestThatFindsThePoolHeldPastItsWaitIsAnswered503() throws Exception {
        NodeLauncher launcher = NodeLauncher.builder().workRoot(work.resolve("children"))
                .jvmOption("-XX:TieredStopAtLevel=1").jvmOption("-XX:+UseSerialGC").build();
        try (DatabaseProcess database = launcher.startDatabase(0, Duration.ofSeconds(30))) {
            NodeOptions options = new NodeOptions("VCN8", "127.0.0.1", 0, 4, 4, 1, MAX_WAIT_MS, HOLD_MS,
                    database.jdbcUrl(), null, List.of(), null, false);
            TradeNodeServer server = TradeNodeServer.start(options, launcher.war(), work.resolve("tomcat"));
            try {
                URI base = URI.create("http://127.0.0.1:" + server.port() + "/trade/");
                assertEquals(200, new TradeClient(base).get("config?action=buildDB&users=10&quotes=5").statusCode());
                TradeClient holder = new TradeClient(base);
                long start = System.nanoTime();
                CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> get(holder));
                // the second asks while the first sleeps on the only connection; it may also come first, then
                // the roles swap: one of the two gets the connection, the other waits 150 ms and gets a 503
                HttpResponse<String> second = get(new TradeClient(base));
                HttpResponse<String> firstResponse = first.join();
                long tookMs = (System.nanoTime() - start) / 1_000_000;
                List<Integer> statuses = List.of(firstResponse.statusCode(), second.statusCode());
                assertTrue(statuses.contains(200) && statuses.contains(503), statuses + " after " + tookMs + " ms");
                HttpResponse<String> refused = firstResponse.statusCode() == 503 ? firstResponse : second;
                assertTrue(refused.body().contains("no JDBC connection"), refused.body());
                assertTrue(tookMs >= HOLD_MS, "the holder held its connection " + HOLD_MS + " ms: " + tookMs);
            } finally {
                server.close();
            }
        }
    }

    private static HttpResponse<String> get(TradeClient client) {
        try {
            return client.get("scenario");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
