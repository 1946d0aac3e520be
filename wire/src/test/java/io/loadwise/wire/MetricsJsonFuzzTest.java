package io.loadwise.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Fuzz target of the agent's metrics document reader ({@link MetricsJson} over {@link JsonReader}), which
 * the dispatcher runs on whatever a node's metrics endpoint answers. Contract: an
 * {@link AgentMetricsDocument} with a non-negative timestamp and finite metrics, or
 * {@link MalformedLoadReportException}; any other exception (a StackOverflowError from deep nesting
 * among them), a hang or an OutOfMemoryError is a finding. An accepted document must read back from the
 * agent's own encoding. Seeds: {@code MetricsJsonFuzzTestInputs/parse/}.
 */
class MetricsJsonFuzzTest {

    @FuzzTest(maxDuration = "15s")
    @DictionaryEntries({"{\"timestamp\":", "\"metrics\":{", "\"sources\":{", "\"OS_CPU_USED%\":", "\"os\":\"sigar\"",
        "\\u", "\\ud800", "true", "false", "null", "[", "]", "e308", "-0", "1763769600000"})
    void parse(byte[] input) {
        AgentMetricsDocument doc;
        try {
            doc = MetricsJson.parse(new String(input, StandardCharsets.UTF_8));
        } catch (MalformedLoadReportException expected) {
            return;
        }
        assertTrue(doc.timestampMillis() >= 0, () -> "negative timestamp from " + show(input));
        for (Map.Entry<String, Double> metric : doc.metrics().entrySet()) {
            assertTrue(Double.isFinite(metric.getValue()), () -> "accepted " + metric + " from " + show(input));
        }
        assertReencodes(doc, input);
    }

    private static void assertReencodes(AgentMetricsDocument doc, byte[] input) {
        String json = MetricsJson.encode(doc.timestampMillis(), doc.metrics(), doc.sources());
        if (json.length() > MetricsJson.MAX_LENGTH) {
            return; // plain notation can be longer than the exponent form that was sent; the limit applies
        }
        AgentMetricsDocument again;
        try {
            again = MetricsJson.parse(json);
        } catch (MalformedLoadReportException e) {
            throw new AssertionError("own encoding " + json + " of " + show(input) + " is rejected: " + e.getMessage());
        }
        assertEquals(doc.timestampMillis(), again.timestampMillis());
        assertEquals(doc.sources(), again.sources());
        assertEquals(doc.metrics().keySet(), again.metrics().keySet());
        for (Map.Entry<String, Double> metric : doc.metrics().entrySet()) {
            double expected = metric.getValue();
            assertEquals(expected, again.metrics().get(metric.getKey()), 5e-5 + Math.abs(expected) * 1e-12,
                    () -> metric.getKey() + " after re-encoding " + json);
        }
    }

    private static String show(byte[] input) {
        return "'" + new String(input, StandardCharsets.UTF_8) + "'";
    }
}
