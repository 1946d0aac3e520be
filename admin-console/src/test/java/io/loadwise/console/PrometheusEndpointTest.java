package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.console.prometheus.ExpositionParser;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.dispatcher.metrics.CounterReading;
import io.loadwise.policy.AgentSample;
import java.net.InetSocketAddress;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code GET /metrics} over the real dispatcher after real TCP traffic, read back with a strict parser. */
class PrometheusEndpointTest extends ApiTestBase {

    private static final String ODD_METRIC = "odd\"name\\x";

    @Test
    void exposesCountersAndGaugesOfEveryClusterAndNodeInTheTextFormat() throws Exception {
        InetSocketAddress listener = control.boundAddress("web");
        for (int i = 0; i < 5; i++) {
            assertEquals("hello", roundTrip(listener, "hello"));
        }
        awaitTrue(() -> {
            CounterReading r = control.totals("web");
            return r.completed() + r.failed() == 5 && r.activeConnections() == 0;
        }, "five finished tunnels");
        sampleMetrics();
        control.cluster("web").node("n2").updateAgentSample(new AgentSample(System.currentTimeMillis(),
                AgentSample.Source.POLL, Map.of("JVM_HEAP_USED%", 33.25, ODD_METRIC, 1.0)));

        ApiClient.Response response = api.get("/metrics");
        assertEquals(200, response.status(), response.body());
        assertEquals("text/plain;version=0.0.4;charset=utf-8",
                response.header("Content-Type").toLowerCase().replace(" ", ""));
        ExpositionParser metrics = ExpositionParser.parse(response.body());

        Map<String, String> web = Map.of("cluster", "web");
        assertEquals(5, metrics.value("loadwise_cluster_requests_total", web));
        assertEquals(0, metrics.value("loadwise_cluster_requests_failed_total", web));
        assertEquals(5, metrics.value("loadwise_cluster_connections_total", web));
        assertEquals(30, metrics.value("loadwise_cluster_bytes_in_total", web), "5 × 'hello\\n'");
        assertEquals(30, metrics.value("loadwise_cluster_bytes_out_total", web));
        assertEquals(0, metrics.value("loadwise_cluster_active_connections", web));
        assertEquals(0, metrics.value("loadwise_cluster_retries_total", web), "nothing failed, nothing retried");
        assertEquals(0, metrics.value("loadwise_cluster_queue_length", web));
        assertEquals(0, metrics.value("loadwise_cluster_queue_waits_total", web));
        assertEquals(0, metrics.value("loadwise_cluster_queue_seconds_total", web));
        assertEquals("gauge", metrics.types.get("loadwise_cluster_queue_length"));
        assertTrue(metrics.all("loadwise_retries_total").isEmpty(), "retries and the queue are the cluster's only");
        double perNode = 0;
        for (ExpositionParser.Sample s : metrics.all("loadwise_requests_total")) {
            assertEquals("web", s.labels().get("cluster"));
            perNode += s.value();
        }
        assertEquals(2, metrics.all("loadwise_requests_total").size(), "one series per node");
        assertEquals(5, perNode);
        assertEquals(5, metrics.value("loadwise_selections_total", Map.of("cluster", "web", "node", "n1"))
                + metrics.value("loadwise_selections_total", Map.of("cluster", "web", "node", "n2")));
        assertEquals(2, metrics.value("loadwise_node_weight", Map.of("cluster", "web", "node", "n2")));
        assertEquals(1, metrics.value("loadwise_node_up", Map.of("cluster", "web", "node", "n1")));
        assertEquals(15, metrics.all("loadwise_cluster_last_second").size(), "every Table 2 figure, queue and retries");
        assertTrue(metrics.all("loadwise_cluster_last_second").stream()
                .anyMatch(s -> s.labels().get("metric").equals("TD_RETRIES")));
        assertTrue(metrics.all("loadwise_cluster_last_second").stream()
                .anyMatch(s -> s.labels().get("metric").equals("TD_AVE_THROUGHPUT")));

        Map<String, String> n2 = Map.of("cluster", "web", "node", "n2");
        assertEquals(33.25, metrics.value("loadwise_agent_metric", with(n2, "JVM_HEAP_USED%")));
        assertEquals(1.0, metrics.value("loadwise_agent_metric", with(n2, ODD_METRIC)), "label value escaped");

        // histograms: five tunnels, each counted once in the cluster's and once in its node's (the parser has
        // checked every series is cumulative and ends with +Inf = _count)
        assertEquals("histogram", metrics.types.get("loadwise_cluster_request_duration_seconds"));
        assertEquals(5, metrics.value("loadwise_cluster_request_duration_seconds_count", web));
        assertEquals(17, metrics.all("loadwise_cluster_request_duration_seconds_bucket").size(), "16 bounds and +Inf");
        assertEquals(0.0005, Double.parseDouble(metrics.all("loadwise_cluster_request_duration_seconds_bucket").get(0)
                .labels().get("le")));
        assertTrue(metrics.value("loadwise_cluster_request_duration_seconds_sum", web) > 0);
        assertEquals(5, metrics.value("loadwise_node_request_duration_seconds_count", Map.of("cluster", "web", "node",
                "n1")) + metrics.value("loadwise_node_request_duration_seconds_count", Map.of("cluster", "web", "node",
                "n2")));
        assertEquals(0, metrics.value("loadwise_cluster_queue_wait_seconds_count", web), "nothing queued");
        assertEquals(5, metrics.value("loadwise_cluster_connect_wait_seconds_count", web), "one connect per tunnel");

        assertEquals("counter", metrics.types.get("loadwise_requests_total"));
        assertEquals("counter", metrics.types.get("loadwise_cluster_bytes_out_total"));
        assertEquals("gauge", metrics.types.get("loadwise_active_connections"));
        assertEquals("gauge", metrics.types.get("loadwise_agent_metric"));
        for (Map.Entry<String, String> family : metrics.types.entrySet()) {
            assertEquals(family.getValue().equals("counter"), family.getKey().endsWith("_total"), family.getKey());
        }
    }

    /** What Prometheus 2.x/3.x sends by default. */
    static final String PROMETHEUS_ACCEPT = "application/openmetrics-text;version=1.0.0,"
            + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

    @Test
    void answersOpenMetricsWhenTheScraperPrefersIt() throws Exception {
        InetSocketAddress listener = control.boundAddress("web");
        assertEquals("hello", roundTrip(listener, "hello"));
        awaitTrue(() -> control.totals("web").completed() == 1, "one finished tunnel");

        ApiClient.Response response = api.get("/metrics", "Accept", PROMETHEUS_ACCEPT);
        assertEquals(200, response.status(), response.body());
        assertEquals("application/openmetrics-text;version=1.0.0;charset=utf-8",
                response.header("Content-Type").toLowerCase().replace(" ", ""));
        String body = response.body();
        assertTrue(body.endsWith("\n# EOF\n"), "ends with # EOF");
        assertTrue(body.contains("\n# TYPE loadwise_cluster_requests counter\n"), "a counter's family drops _total");
        assertTrue(body.contains("\nloadwise_cluster_requests_total{cluster=\"web\"} 1\n"), "its samples keep it");
        assertTrue(body.contains("\n# TYPE loadwise_cluster_request_duration_seconds histogram\n"));
        // every sample belongs to the family declared last: its name, or name_total / _bucket / _sum / _count
        String family = null;
        for (String line : body.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                family = line.split(" ")[2];
            } else if (!line.startsWith("#")) {
                String name = line.split("[{ ]")[0];
                assertTrue(name.equals(family) || name.matches(java.util.regex.Pattern.quote(family)
                        + "_(total|bucket|sum|count)"), line + " outside " + family);
            }
        }

        ApiClient.Response text = api.get("/metrics", "Accept", "text/plain;version=0.0.4");
        assertEquals("text/plain;version=0.0.4;charset=utf-8", text.header("Content-Type").toLowerCase().replace(" ", ""));
        assertTrue(text.body().contains("# TYPE loadwise_cluster_requests_total counter"));
        assertFalse(text.body().contains("# EOF"));
    }

    /** A cluster with its own listen and proxyProtocol: its headers counted by outcome, like a listener's. */
    @Test
    void countsThePROXYHeadersOfAClusterThatListens() throws Exception {
        assertEquals(201, api.post("/api/clusters", """
                {"name": "pp", "mode": "tcp", "listen": "127.0.0.1:0", "policy": "round-robin",
                 "proxyProtocol": {"accept": "v1", "trustedSources": ["127.0.0.1"]},
                 "nodes": [{"name": "x", "address": "%s"}]}""".formatted(node1.address())).status());
        InetSocketAddress pp = control.boundAddress("pp");
        try (java.net.Socket good = new java.net.Socket(pp.getAddress(), pp.getPort())) {
            good.setSoTimeout(5_000);
            good.getOutputStream().write("PROXY TCP4 203.0.113.7 127.0.0.1 5000 80\r\nhello\n"
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals("hello\n", new String(good.getInputStream().readNBytes(6),
                    java.nio.charset.StandardCharsets.US_ASCII), "echoed after the header");
        }
        try (java.net.Socket bad = new java.net.Socket(pp.getAddress(), pp.getPort())) { // trusted, no header
            bad.setSoTimeout(5_000);
            bad.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals(-1, bad.getInputStream().read(), "closed");
        }
        Map<String, String> accepted = Map.of("cluster", "pp", "outcome", "accepted");
        Map<String, String> invalid = Map.of("cluster", "pp", "outcome", "invalid");
        ExpositionParser metrics = null;
        long until = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < until) {
            metrics = ExpositionParser.parse(api.get("/metrics").body());
            if (metrics.all("loadwise_cluster_proxy_protocol_total").stream()
                    .anyMatch(sample -> sample.labels().equals(invalid) && sample.value() == 1)) {
                break;
            }
            Thread.sleep(20);
        }
        assertEquals(1, metrics.value("loadwise_cluster_proxy_protocol_total", invalid),
                () -> metrics0(api.get("/metrics").body()));
        assertEquals(1, metrics.value("loadwise_cluster_proxy_protocol_total", accepted));
        assertEquals(0, metrics.value("loadwise_cluster_proxy_protocol_total", Map.of("cluster", "pp", "outcome",
                "untrusted")));
        assertEquals("counter", metrics.types.get("loadwise_cluster_proxy_protocol_total"));
        assertTrue(metrics.all("loadwise_cluster_proxy_protocol_total").stream()
                .allMatch(sample -> sample.labels().get("cluster").equals("pp")), "only clusters with proxyProtocol");
    }

    private static String metrics0(String body) {
        return body.lines().filter(l -> l.contains("proxy_protocol")).reduce("", (a, b) -> a + "\n" + b);
    }

    @Test
    void needsTheBearerToken() {
        assertEquals(401, api.send("GET", "/metrics", null, null).status());
        assertEquals(401, api.send("GET", "/metrics", null, "Bearer wrong").status());
    }

    private static Map<String, String> with(Map<String, String> labels, String metric) {
        Map<String, String> out = new java.util.HashMap<>(labels);
        out.put("metric", metric);
        return out;
    }
}
