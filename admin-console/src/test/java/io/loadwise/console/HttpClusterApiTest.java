package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.console.testing.ApiClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An HTTP (L7) cluster created through the API over two real HTTP nodes, then driven and removed. */
class HttpClusterApiTest extends ApiTestBase {

    private final List<HttpServer> webNodes = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void startWebNodes() throws IOException {
        for (String name : new String[] {"a", "b"}) {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", exchange -> {
                byte[] body = ("node " + name).getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            webNodes.add(server);
        }
    }

    @AfterEach
    void stopWebNodes() {
        webNodes.forEach(s -> s.stop(0));
    }

    private String nodeAddress(int i) {
        return "127.0.0.1:" + webNodes.get(i).getAddress().getPort();
    }

    private String fetch(InetSocketAddress listener) throws Exception {
        return fetch(http, listener);
    }

    private static String fetch(HttpClient client, InetSocketAddress listener) throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + listener.getPort() + "/hello")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    private long requests(String node) {
        return control.cluster("shop").node(node).counters().totalRequests();
    }

    @Test
    void httpClusterCreatedThroughTheApiBalancesRequestsAndIsControlled() throws Exception {
        ApiClient.Response created = api.post("/api/clusters", """
                {"name": "shop", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                 "nodes": [{"name": "a", "address": "%s"}, {"name": "b", "address": "%s"}]}
                """.formatted(nodeAddress(0), nodeAddress(1)));
        assertEquals(201, created.status(), created.body());
        assertEquals("per-request", created.json().path("balance").asText());
        assertEquals("none", created.json().path("affinity").asText());
        InetSocketAddress listener = parse(created.json().path("listen").path("bound").asText());

        List<String> answers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            answers.add(fetch(listener));
        }
        assertEquals(2, answers.stream().filter("node a"::equals).count(), answers.toString());
        assertEquals(2, answers.stream().filter("node b"::equals).count(), answers.toString());
        awaitTrue(() -> requests("a") == 2 && requests("b") == 2, "four completed requests counted");

        JsonNode nodes = api.get("/api/clusters/shop").json().path("nodes");
        assertEquals(2, nodes.get(0).path("requests").asInt());
        assertEquals(2, nodes.get(1).path("selections").asInt());
        assertEquals(0, nodes.get(1).path("failures").asInt(-1));
        JsonNode totals = api.get("/api/clusters/shop/stats").json().path("totals");
        assertEquals(4, totals.path("samples").asInt());
        assertTrue(totals.path("ptMillis").asDouble() > 0, totals.toString());

        assertEquals(200, api.put("/api/clusters/shop/nodes/a", "{\"enabled\": false}").status());
        assertEquals("node b", fetch(listener));
        assertEquals("node b", fetch(listener));

        assertEquals(204, api.delete("/api/clusters/shop").status());
        assertTrue(clusterOnDisk("shop") == null);
        // A new connection: the client's pooled keep-alive connection outlives the listener by design.
        HttpClient fresh = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        assertThrows(ConnectException.class, () -> fetch(fresh, listener));
    }
}
