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
        control.sampleMetrics();
        for (String word : new String[] {"one", "two", "six"}) {
            assertEquals(word, roundTrip(control.boundAddress("web"), word));
        }
        awaitTrue(() -> control.totals("web").completed() == 3, "three tunnels to close");
        control.sampleMetrics();
    }

    @Test
    void statsBeforeAnySampleHaveNoLastSecondAndZeroTotals() {
        JsonNode stats = api.get("/api/clusters/web/stats").json();
        assertTrue(stats.path("lastSecond").isNull(), stats.toString());
        assertEquals(0, stats.path("totals").path("samples").asInt(-1));
        assertTrue(stats.path("totals").path("failedPercent").isNull(), "0 of 0 has no percentage");
        assertTrue(stats.path("totals").path("latencyMillis").isNull());
        assertFalse(stats.has("history"));
    }

    @Test
    void totalsAndLastSecondReflectRealTraffic() throws Exception {
        trafficThenSample();
        ApiClient.Response response = api.get("/api/clusters/web/stats");
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
        assertTrue(last.path("TD_AVE_SRV_SELS").asDouble() > 0, last.toString());
        assertTrue(last.path("TD_AVE_THROUGHPUT").asDouble() > 0, last.toString());
        assertEquals(0.0, last.path("TD_AVE_FAIL_RQSTS").asDouble(-1));

        JsonNode n1 = stats.path("nodes").get(0);
        assertEquals("n1", n1.path("name").asText());
        assertEquals(3, n1.path("selections").asInt());
        assertEquals(3, n1.path("totals").path("completed").asInt());
        assertTrue(n1.path("lastSecond").path("TD_AVE_SRV_SELS").asDouble() > 0);
        assertEquals(0, stats.path("nodes").get(1).path("selections").asInt(-1));
        assertEquals(1, stats.path("averages").path("seconds").asInt());
    }

    @Test
    void historyReturnsTheLastNSeconds() throws Exception {
        trafficThenSample();
        control.sampleMetrics();
        JsonNode all = api.get("/api/clusters/web/stats?history=60").json().path("history");
        assertEquals(2, all.size(), "two intervals were sampled");
        JsonNode one = api.get("/api/clusters/web/stats?history=1").json().path("history");
        assertEquals(1, one.size());
        assertEquals(all.get(1).path("epochMillis").asLong(), one.get(0).path("epochMillis").asLong());
        assertEquals(0.0, one.get(0).path("TD_AVE_SRV_SELS").asDouble(-1), "nothing happened in the last interval");
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
