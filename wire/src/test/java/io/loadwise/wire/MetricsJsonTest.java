package io.loadwise.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MetricsJsonTest {

    @Test
    void encodesTheDocumentShapeExactly() {
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("OS_CPU_USED%", 23.5);
        metrics.put("AMX_SESSIONS_ACT", 12.0);
        metrics.put("JVM_HEAP_USED%", 1.0 / 3);
        metrics.put("OS_DISK_QUEUE", Double.NaN);
        assertEquals("{\"timestamp\":1763769600000,\"metrics\":{\"OS_CPU_USED%\":23.5,\"AMX_SESSIONS_ACT\":12,"
                + "\"JVM_HEAP_USED%\":0.3333},\"sources\":{\"os\":\"sigar\",\"q\\\"x\":\"a\\\\b\"}}",
                MetricsJson.encode(1763769600000L, metrics, orderedSources()));
    }

    private static Map<String, String> orderedSources() {
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("os", "sigar");
        sources.put("q\"x", "a\\b");
        return sources;
    }

    @Test
    void roundTrips() throws Exception {
        Map<String, Double> metrics = Map.of("OS_CPU_USED%", 99.25, "JVM_GC_TIME", 123456.0, "OS_LOAD_AVE1", 0.0001);
        AgentMetricsDocument doc = MetricsJson.parse(MetricsJson.encode(42L, metrics, orderedSources()));
        assertEquals(42L, doc.timestampMillis());
        assertEquals(metrics, doc.metrics());
        assertEquals(orderedSources(), doc.sources());
    }

    @Test
    void toleratesUnknownMembersWhitespaceAndMissingSources() throws Exception {
        AgentMetricsDocument doc = MetricsJson.parse(
                " {\n \"agent\": {\"version\": \"9\", \"tags\": [1, true, null]},\n"
                        + " \"timestamp\": 5, \"metrics\": {\"A\": -1.5e2, \"B\": 0} } ");
        assertEquals(5L, doc.timestampMillis());
        assertEquals(Map.of("A", -150.0, "B", 0.0), doc.metrics());
        assertTrue(doc.sources().isEmpty());
    }

    @Test
    void decodesEscapes() throws Exception {
        AgentMetricsDocument doc = MetricsJson.parse(
                "{\"timestamp\":1,\"metrics\":{\"\\u0041\\n\":1},\"sources\":{\"os\":\"\\\"proc\\\"\"}}");
        assertEquals(Map.of("A\n", 1.0), doc.metrics());
        assertEquals("\"proc\"", doc.sources().get("os"));
    }

    @Test
    void rejectsBadDocumentsWithSpecificMessages() {
        assertMalformed(null, "null");
        assertMalformed("", "end of input");
        assertMalformed("[]", "must be a JSON object");
        assertMalformed("{\"metrics\":{}}", "timestamp");
        assertMalformed("{\"timestamp\":\"now\",\"metrics\":{}}", "timestamp");
        assertMalformed("{\"timestamp\":1.5,\"metrics\":{}}", "integer");
        assertMalformed("{\"timestamp\":-1,\"metrics\":{}}", "non-negative");
        assertMalformed("{\"timestamp\":1}", "\"metrics\" object");
        assertMalformed("{\"timestamp\":1,\"metrics\":{\"A\":\"1\"}}", "must be a number");
        assertMalformed("{\"timestamp\":1,\"metrics\":{\"A\":null}}", "must be a number");
        assertMalformed("{\"timestamp\":1,\"metrics\":{},\"sources\":{\"os\":1}}", "must be a string");
        assertMalformed("{\"timestamp\":1,\"metrics\":{}} x", "trailing");
        assertMalformed("{\"timestamp\":1,\"timestamp\":2,\"metrics\":{}}", "duplicate");
        assertMalformed("{\"timestamp\":01,\"metrics\":{}}", "expected ',' or '}'");
        assertMalformed("{\"timestamp\":1e999,\"metrics\":{}}", "out of range");
        assertMalformed("{\"timestamp\":1,\"metrics\":{\"A\":1.}}", "digit expected");
        assertMalformed("{\"timestamp\":1,\"metrics\":{\"A\\q\":1}}", "invalid escape");
        assertMalformed("{\"timestamp\":1,\"metrics\":{\"A\":tru}}", "literal");
        assertMalformed("[".repeat(100), "nesting");
    }

    @Test
    void randomGarbageNeverEscapesAsAnUncheckedException() {
        Random random = new Random(7);
        String alphabet = "{}[]\":,.-+eE0123456789 \\ntrufalsemicsp";
        String valid = MetricsJson.encode(1, Map.of("A", 1.0), Map.of("os", "proc"));
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder(valid);
            int edits = 1 + random.nextInt(4);
            for (int j = 0; j < edits; j++) {
                int at = random.nextInt(sb.length());
                if (random.nextBoolean()) {
                    sb.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                } else {
                    sb.deleteCharAt(at);
                }
            }
            try {
                MetricsJson.parse(sb.toString());
            } catch (MalformedLoadReportException expected) {
                assertFalse(expected.getMessage().isBlank());
            }
        }
    }

    private static void assertMalformed(String input, String messagePart) {
        MalformedLoadReportException e = assertThrows(MalformedLoadReportException.class,
                () -> MetricsJson.parse(input), () -> "accepted: " + input);
        assertTrue(e.getMessage().contains(messagePart), () -> "message '" + e.getMessage()
                + "' does not mention '" + messagePart + "'");
    }
}
