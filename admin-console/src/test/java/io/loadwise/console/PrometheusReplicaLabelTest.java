package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.console.testing.ApiClient;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A replica of a shared store labels every Prometheus series with {@code replica}; alone it adds nothing. */
class PrometheusReplicaLabelTest extends ApiTestBase {

    @Test
    void everySeriesCarriesTheReplicaLabel() {
        assertFalse(api.get("/metrics").body().contains("replica="), "no label with the file store");

        // a listener with a rate-limited route, so the listener, route and rate-limit series are there too
        assertEquals(201, api.put("/api/rate-limits/per-client", "{\"key\": \"clientIp\", \"requestsPerSecond\": 5}")
                .status());
        assertEquals(201, api.post("/api/clusters", """
                {"name": "app", "mode": "http", "policy": "round-robin", "nodes": [{"name": "a", "address": "%s"}]}
                """.formatted(node1.address())).status());
        assertEquals(201, api.post("/api/listeners", """
                {"name": "edge", "listen": "127.0.0.1:0", "routes": [{"cluster": "app", "rateLimit": "per-client"}]}
                """).status());
        control.setReplica("lb1", List::of);
        ApiClient.Response response = api.get("/metrics");

        assertEquals(200, response.status());
        List<String> samples = response.body().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        assertFalse(samples.isEmpty());
        for (String sample : samples) {
            assertTrue(sample.contains("{replica=\"lb1\""), sample);
        }
        for (String family : List.of("loadwise_route_requests_total{", "loadwise_listener_rejected_per_client_total{",
                "loadwise_rate_limited_total{", "loadwise_rate_limit_table_bytes{")) {
            assertTrue(samples.stream().anyMatch(l -> l.startsWith(family + "replica=\"lb1\"")), family);
        }
    }
}
