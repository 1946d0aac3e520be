package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadwise.console.testing.ApiClient;
import org.junit.jupiter.api.Test;

class StatsApiTest extends ApiTestBase {

    private static final String[] TABLE_2 = {"TD_AVE_CONNS_ACT", "TD_AVE_RQSTS_ACT", "TD_AVE_RSPS_TIME",
        "TD_AVE_THROUGHPUT", "TD_AVE_FAIL_RQSTS", "TD_AVE_SRV_SELS", "TD_AVE_SRV_SEL", "TD_AVE_SRV_CONN_WAIT",
        "TD_AVE_RQ_PROCTIME", "TD_AVE_SLOWDOWN", "TD_AVE_TRAF_IN", "TD_AVE_TRAF_OUT"};

    /** Three tunnels through {@code web}, then one metrics sample covering them. */
    private void trafficThenSample() throws Exception {
        for (String word : new String[] {"one", "two", "six"}) {
            assertEquals(word, roundTrip(control.boundAddress("web"), word));
        }
        awaitTrue(() -> control.totals("web").completed() == 3, "three tunnels to close");
        sampleMetrics();
    }

    /** The largest value of a Table 2 figure over the whole history (the sampler also runs on its own). */
    private static double peak(JsonNode history, String key) {
        double max = 0;
        for (JsonNode second : history) {
            max = Math.max(max, second.path(key).asDouble(0));
        }
        return max;
    }

    @Test
    void statsBeforeTrafficAreZero() {
        JsonNode stats = api.get("/api/clusters/web/stats").json();
        assertEquals(0, stats.path("totals").path("samples").asInt(-1));
        assertTrue(stats.path("totals").path("failedPercent").isNull(), "0 of 0 has no percentage");
        assertTrue(stats.path("totals").path("latencyMillis").isNull());
        JsonNode last = stats.path("lastSecond");
        assertTrue(last.isNull() || last.path("TD_AVE_SRV_SELS").asDouble(-1) == 0.0, last.toString());
        assertFalse(stats.has("history"));
    }

    @Test
    void totalsAndPerSecondFiguresReflectRealTraffic() throws Exception {
        trafficThenSample();
        ApiClient.Response response = api.get("/api/clusters/web/stats?history=3600");
        assertEquals(200, response.status(), response.body());
        JsonNode stats = response.json();
        assertEquals("web", stats.path("cluster").asText());

        JsonNode totals = stats.path("totals");
        assertEquals(3, totals.path("samples").asInt());
        assertEquals(3, totals.path("completed").asInt());
        assertEquals(0, totals.path("failed").asInt());
        assertEquals(0.0, totals.path("failedPercent").asDouble(-1));
        assertEquals(3, totals.path("selections").asInt());
        assertEquals(3 * 4, totals.path("bytesIn").asInt(), "three 4-byte lines in");
        assertEquals(3 * 4, totals.path("bytesOut").asInt());
        assertTrue(totals.path("latencyMillis").asDouble() > 0, totals.toString());
        assertTrue(totals.path("wt1Millis").isNumber(), totals.toString());
        assertTrue(totals.path("slowdown").asDouble() >= 1.0, totals.toString());

        JsonNode last = stats.path("lastSecond");
        for (String key : TABLE_2) {
            assertTrue(last.has(key), key + " missing from " + last);
        }
        JsonNode history = stats.path("history");
        assertEquals(last, history.get(history.size() - 1), "lastSecond is the newest second of the history");
        assertTrue(peak(history, "TD_AVE_SRV_SELS") > 0, history.toString());
        assertTrue(peak(history, "TD_AVE_THROUGHPUT") > 0, history.toString());
        assertEquals(0.0, peak(history, "TD_AVE_FAIL_RQSTS"));
        assertEquals(history.size(), stats.path("averages").path("seconds").asInt());
        assertTrue(stats.path("averages").path("throughput").asDouble() > 0);

        JsonNode n1 = stats.path("nodes").get(0);
        assertEquals("n1", n1.path("name").asText());
        assertEquals(3, n1.path("selections").asInt());
        assertEquals(3, n1.path("totals").path("completed").asInt());
        assertTrue(n1.path("lastSecond").has("TD_AVE_SRV_SELS"));
        assertEquals(0, stats.path("nodes").get(1).path("selections").asInt(-1));
        assertEquals(0, stats.path("nodes").get(1).path("totals").path("samples").asInt(-1));
    }

    @Test
    void historyReturnsTheLastNSeconds() throws Exception {
        trafficThenSample();
        sampleMetrics();
        JsonNode all = api.get("/api/clusters/web/stats?history=60").json().path("history");
        assertTrue(all.size() >= 2 && all.size() <= 60, "at least the two explicit samples: " + all.size());
        JsonNode one = api.get("/api/clusters/web/stats?history=1").json().path("history");
        assertEquals(1, one.size());
        assertTrue(one.get(0).path("epochMillis").asLong() >= all.get(all.size() - 1).path("epochMillis").asLong());
        assertEquals(2, api.get("/api/clusters/web/stats?history=2").json().path("history").size());
    }

    @Test
    void badHistoryParameterIs400AndUnknownClusterIs404() {
        ApiClient.Response zero = api.get("/api/clusters/web/stats?history=0");
        assertEquals(400, zero.status());
        assertEquals("query parameter history: 0 out of range 1..3600", zero.json().path("error").asText());
        ApiClient.Response text = api.get("/api/clusters/web/stats?history=all");
        assertEquals(400, text.status());
        assertTrue(text.json().path("error").asText().contains("'all' is not an integer"));
        assertEquals(404, api.get("/api/clusters/nope/stats").status());
    }
}
