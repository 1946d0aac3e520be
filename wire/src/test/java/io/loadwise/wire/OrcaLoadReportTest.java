package io.loadwise.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class OrcaLoadReportTest {

    private static Map<String, Double> issueExample() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("OS_CPU_USED%", 23.0);
        m.put("OS_MEM_USED%", 41.0);
        m.put("OS_CPU_IOWAIT%", 1.0);
        m.put("JVM_HEAP_USED%", 45.0);
        m.put("AMX_CONNS_Q_USED%", 10.0);
        m.put("AMX_CONNS_Q_THRBSY%", 55.0);
        m.put("AMX_JDBC_ACTC%", 30.0);
        m.put("AMX_SESSIONS_ACT", 12.0);
        m.put("APP_RQST_RATE", 120.5);
        m.put("APP_RQST_ERR_RATE", 0.5);
        m.put(OrcaLoadReport.APP_UTILIZATION, 61.0);
        m.put("JVM_THREADS", 80.0); // not carried by the header
        return m;
    }

    @Test
    void encodesTheIssueExample() {
        assertEquals("TEXT cpu_utilization=0.23,mem_utilization=0.41,rps_fractional=120.5,eps=0.5,"
                + "application_utilization=0.61,named_metrics.os_cpu_iowait=0.01,named_metrics.jvm_heap_used=0.45,"
                + "named_metrics.http_queue_used=0.1,named_metrics.http_threads_busy=0.55,"
                + "named_metrics.jdbc_active=0.3,named_metrics.http_sessions_active=12",
                OrcaLoadReport.encodeText(issueExample()));
    }

    @Test
    void absentMetricsAreLeftOutNeverSentAsZero() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("OS_CPU_USED%", 150.0); // cpu may exceed 1 on the wire
        m.put("JVM_HEAP_USED%", 12.5);
        m.put("AMX_JDBC_ACTC%", Double.NaN);
        m.put("APP_RQST_RATE", Double.POSITIVE_INFINITY);
        m.put("APP_RQST_ERR_RATE", -1.0);
        String text = OrcaLoadReport.encodeText(m);
        // no application_utilization: the heap says nothing about how busy the node is
        assertEquals("TEXT cpu_utilization=1.5,named_metrics.jvm_heap_used=0.125", text);
        assertEquals("TEXT ", OrcaLoadReport.encodeText(Map.of()));
        assertTrue(OrcaLoadReport.isEmpty(OrcaLoadReport.encode(OrcaLoadReport.Form.JSON, Map.of())));
        assertTrue(OrcaLoadReport.isEmpty(OrcaLoadReport.encode(OrcaLoadReport.Form.BIN, Map.of())));
        assertFalse(OrcaLoadReport.isEmpty(OrcaLoadReport.encode(OrcaLoadReport.Form.BIN, m)));
    }

    @Test
    void encodesTheJsonFormWithNamedMetricsNested() {
        assertEquals("JSON {\"cpu_utilization\":0.23,\"mem_utilization\":0.41,\"rps_fractional\":120.5,"
                + "\"eps\":0.5,\"application_utilization\":0.61,\"named_metrics\":{\"os_cpu_iowait\":0.01,"
                + "\"jvm_heap_used\":0.45,\"http_queue_used\":0.1,\"http_threads_busy\":0.55,"
                + "\"jdbc_active\":0.3,\"http_sessions_active\":12}}",
                OrcaLoadReport.encode(OrcaLoadReport.Form.JSON, issueExample()));
        assertEquals("JSON {\"named_metrics\":{\"jvm_heap_used\":0.5}}",
                OrcaLoadReport.encode(OrcaLoadReport.Form.JSON, Map.of("JVM_HEAP_USED%", 50.0)));
    }

    @Test
    void everyFormRoundTripsToTheSameSeedMetrics() throws Exception {
        Map<String, Double> text = OrcaLoadReport.parse(OrcaLoadReport.encode(OrcaLoadReport.Form.TEXT, issueExample()));
        for (OrcaLoadReport.Form form : OrcaLoadReport.Form.values()) {
            Map<String, Double> parsed = OrcaLoadReport.parse(OrcaLoadReport.encode(form, issueExample()));
            assertEquals(text.keySet(), parsed.keySet(), form.name());
            for (String name : text.keySet()) {
                assertEquals(text.get(name), parsed.get(name), 1e-9, form + " " + name);
            }
        }
        assertEquals(120.5, text.get("APP_RQST_RATE"));
        assertEquals(0.5, text.get("APP_RQST_ERR_RATE"));
        assertEquals(61.0, text.get(OrcaLoadReport.APP_UTILIZATION), 1e-9);
    }

    /** Bytes written by hand: field 1 (cpu) 0.5, an unknown varint field 20, named_metrics {"x": 0.25}. */
    @Test
    void jdbcWaitersTravelAsACountInEveryFormAndStayAbsentWhenNotRead() throws Exception {
        Map<String, Double> waiting = new LinkedHashMap<>(issueExample());
        waiting.put("AMX_JDBC_WAIT", 3.0);
        assertTrue(OrcaLoadReport.encodeText(waiting).endsWith(",named_metrics.jdbc_waiting=3"),
                OrcaLoadReport.encodeText(waiting));
        Map<String, Double> none = new LinkedHashMap<>(issueExample());
        none.put("AMX_JDBC_WAIT", 0.0);
        for (OrcaLoadReport.Form form : OrcaLoadReport.Form.values()) {
            assertEquals(3.0, OrcaLoadReport.parse(OrcaLoadReport.encode(form, waiting)).get("AMX_JDBC_WAIT"), form.name());
            assertEquals(0.0, OrcaLoadReport.parse(OrcaLoadReport.encode(form, none)).get("AMX_JDBC_WAIT"),
                    form + ": 0 waiters is a reading");
            assertFalse(OrcaLoadReport.parse(OrcaLoadReport.encode(form, issueExample())).containsKey("AMX_JDBC_WAIT"),
                    form + ": an agent that cannot read it (or an older one) sends nothing, never 0");
        }
        assertTrue(OrcaLoadReport.CARRIED_METRICS.contains(SeedMetric.AMX_JDBC_WAIT.seedName()));
        // an older dispatcher, which knows no jdbc_waiting, keeps the key under its ORCA name and reads the rest
        Map<String, Double> older = OrcaLoadReport.parse("TEXT cpu_utilization=0.5,named_metrics.some_newer_metric=3");
        assertEquals(3.0, older.get("named_metrics.some_newer_metric"));
        assertEquals(50.0, older.get("OS_CPU_USED%"), 1e-9);
    }

    @Test
    void parsesHandWrittenProtobufAndSkipsUnknownFields() throws Exception {
        byte[] bytes = {
            0x09, 0, 0, 0, 0, 0, 0, (byte) 0xE0, 0x3F, // 1: double 0.5
            (byte) 0xA0, 0x01, 0x07, // 20: varint 7, not an OrcaLoadReport field
            0x42, 0x0C, 0x0A, 0x01, 'x', 0x11, 0, 0, 0, 0, 0, 0, (byte) 0xD0, 0x3F, // 8: {"x": 0.25}
            0x18, (byte) 0x96, 0x01, // 3: the deprecated integer rps, 150
        };
        Map<String, Double> parsed = OrcaLoadReport.parse("BIN " + java.util.Base64.getEncoder().encodeToString(bytes));
        assertEquals(Map.of("OS_CPU_USED%", 50.0, "named_metrics.x", 0.25, "rps", 150.0), parsed);
    }

    @Test
    void rejectsBrokenProtobufWithSpecificMessages() {
        assertMalformed("BIN ***", "base64");
        assertMalformed("BIN " + bin(0x09, 0, 0), "truncated");
        assertMalformed("BIN " + bin(0x08, 0x01), "wire type 0, expected 1"); // cpu as a varint
        assertMalformed("BIN " + bin(0x09, 0, 0, 0, 0, 0, 0, 0xF8, 0x7F), "out of range"); // NaN
        assertMalformed("BIN " + bin(0x09, 0, 0, 0, 0, 0, 0, 0xF0, 0x7F), "out of range"); // +Infinity
        assertMalformed("BIN " + bin(0x09, 0, 0, 0, 0, 0, 0, 0xF0, 0xBF), "negative"); // -1
        assertMalformed("BIN " + bin(0x09, 0, 0, 0, 0, 0, 0, 0xE0, 0x7F), "out of range"); // 2^1023 as a percentage
        assertMalformed("BIN " + bin(0x09, 0, 0, 0, 0, 0, 0, 0xE0, 0x3F, 0x09, 0, 0, 0, 0, 0, 0, 0xE0, 0x3F), "twice");
        assertMalformed("BIN " + bin(0x42, 0x7F, 0x0A), "truncated"); // an entry longer than the report
        assertMalformed("BIN " + bin(0x42, 0x03, 0x0A, 0x01, 0xFF), "UTF-8");
        assertMalformed("BIN " + bin(0x0B), "wire type 3"); // a group
        assertMalformed("BIN " + bin(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF), "10 bytes");
        assertMalformed("BIN " + bin(0x00), "field number 0");
        assertMalformed("BIN " + bin(0xA2, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F), "truncated"); // 4 GB unknown field
    }

    private static String bin(int... bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = (byte) bytes[i];
        }
        return java.util.Base64.getEncoder().encodeToString(out);
    }

    @Test
    void roundTripsToSeedNamesInPercent() throws Exception {
        Map<String, Double> parsed = OrcaLoadReport.parse(OrcaLoadReport.encodeText(issueExample()));
        assertEquals(23.0, parsed.get("OS_CPU_USED%"), 1e-9);
        assertEquals(41.0, parsed.get("OS_MEM_USED%"), 1e-9);
        assertEquals(1.0, parsed.get("OS_CPU_IOWAIT%"), 1e-9);
        assertEquals(45.0, parsed.get("JVM_HEAP_USED%"), 1e-9);
        assertEquals(10.0, parsed.get("AMX_CONNS_Q_USED%"), 1e-9);
        assertEquals(55.0, parsed.get("AMX_CONNS_Q_THRBSY%"), 1e-9);
        assertEquals(30.0, parsed.get("AMX_JDBC_ACTC%"), 1e-9);
        assertEquals(12.0, parsed.get("AMX_SESSIONS_ACT"), 1e-9);
        assertEquals(61.0, parsed.get(OrcaLoadReport.APP_UTILIZATION), 1e-9);
        assertEquals(120.5, parsed.get("APP_RQST_RATE"), 1e-9);
        assertEquals(0.5, parsed.get("APP_RQST_ERR_RATE"), 1e-9);
        assertFalse(parsed.containsKey("JVM_THREADS"));
    }

    @Test
    void acceptsColonSeparatorsWhitespaceAndLowercaseForm() throws Exception {
        Map<String, Double> parsed = OrcaLoadReport.parse(
                "  text cpu_utilization: 0.5 , named_metrics.http_sessions_active:3 ");
        assertEquals(Map.of("OS_CPU_USED%", 50.0, "AMX_SESSIONS_ACT", 3.0), parsed);
    }

    @Test
    void keepsUnknownKeysUnderTheirOrcaName() throws Exception {
        Map<String, Double> parsed = OrcaLoadReport.parse("TEXT rps=12,named_metrics.foo=0.2");
        assertEquals(Map.of("rps", 12.0, "named_metrics.foo", 0.2), parsed);
    }

    @Test
    void parsesTheJsonFormInBothSpellings() throws Exception {
        Map<String, Double> parsed = OrcaLoadReport.parse(
                "JSON {\"cpu_utilization\":0.23,\"memUtilization\":0.5,"
                        + "\"named_metrics\":{\"jvm_heap_used\":0.45,\"http_sessions_active\":7}}");
        assertEquals(23.0, parsed.get("OS_CPU_USED%"), 1e-9);
        assertEquals(50.0, parsed.get("OS_MEM_USED%"), 1e-9);
        assertEquals(45.0, parsed.get("JVM_HEAP_USED%"), 1e-9);
        assertEquals(7.0, parsed.get("AMX_SESSIONS_ACT"), 1e-9);
    }

    @Test
    void emptyTextReportIsAnEmptyMap() throws Exception {
        assertTrue(OrcaLoadReport.parse("TEXT").isEmpty());
    }

    @Test
    void rejectsGarbageWithSpecificMessages() {
        assertMalformed(null, "missing");
        assertMalformed("", "must start with");
        assertMalformed("cpu_utilization=0.2", "must start with");
        assertMalformed("TEXTcpu_utilization=0.2", "must start with");
        assertMalformed("BIN AAAA", "BIN");
        assertMalformed("TEXT cpu_utilization", "no '=' or ':'");
        assertMalformed("TEXT =0.2", "no key");
        assertMalformed("TEXT cpu_utilization=", "no value");
        assertMalformed("TEXT cpu_utilization=abc", "non-numeric");
        assertMalformed("TEXT cpu_utilization=NaN", "invalid value");
        assertMalformed("TEXT cpu_utilization=Infinity", "invalid value");
        assertMalformed("TEXT cpu_utilization=0x1p3", "invalid value");
        assertMalformed("TEXT cpu_utilization=-0.1", "negative");
        assertMalformed("TEXT cpu_utilization=0.1,cpu_utilization=0.2", "twice");
        assertMalformed("TEXT cpu_utilization=0.1,", "no '=' or ':'");
        assertMalformed("JSON [1,2]", "must be an object");
        assertMalformed("JSON {\"cpu_utilization\":\"high\"}", "must be a number");
        assertMalformed("JSON {\"cpu_utilization\":0.1", "Malformed JSON");
        assertMalformed("TEXT " + "a=1,".repeat(3000), "limit");
    }

    /** Found by OrcaLoadReportFuzzTest: a finite wire fraction times 100 overflowed to an infinite percentage. */
    @Test
    void valuesThatOverflowWhenScaledToPercentAreRejected() throws Exception {
        assertMalformed("TEXT cpu_utilization=1e307", "out of range");
        assertMalformed("JSON {\"named_metrics\":{\"jvm_heap_used\":9e306}}", "out of range");
        assertEquals(1e308, OrcaLoadReport.parse("TEXT cpu_utilization=1e306").get("OS_CPU_USED%"), 1e294);
        assertEquals(1e307, OrcaLoadReport.parse("TEXT named_metrics.http_sessions_active=1e307")
                .get("AMX_SESSIONS_ACT"), 0); // a count, not scaled
    }

    @Test
    void randomGarbageNeverEscapesAsAnUncheckedException() {
        Random random = new Random(42);
        String alphabet = "TEXJSON ,=:.-+0123456789eE{}[]\"\\ntrufalse_abcQUIw/+=";
        String[] seeds = {"TEXT ", "JSON ", "text ", "BIN ", ""};
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder(seeds[random.nextInt(seeds.length)]);
            int len = random.nextInt(40);
            for (int j = 0; j < len; j++) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            try {
                Map<String, Double> parsed = OrcaLoadReport.parse(sb.toString());
                for (double v : parsed.values()) {
                    assertTrue(Double.isFinite(v) && v >= 0, () -> "bad value from " + sb);
                }
            } catch (MalformedLoadReportException expected) {
                assertFalse(expected.getMessage().isBlank());
            }
        }
    }

    private static void assertMalformed(String input, String messagePart) {
        MalformedLoadReportException e = assertThrows(MalformedLoadReportException.class,
                () -> OrcaLoadReport.parse(input), () -> "accepted: " + input);
        assertTrue(e.getMessage().contains(messagePart), () -> "message '" + e.getMessage()
                + "' does not mention '" + messagePart + "'");
    }
}
