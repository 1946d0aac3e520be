package io.loadwise.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Fuzz target of the ORCA {@code endpoint-load-metrics} parser. The header comes from the nodes, so from
 * anyone who controls what a node answers. Contract: {@link OrcaLoadReport#parse} returns finite,
 * non-negative metrics or throws {@link MalformedLoadReportException}; any other exception, a hang or an
 * OutOfMemoryError is a finding. What it accepts must also survive the agent's own encoding, as the
 * agent re-encodes reports in the same form. Seeds: {@code OrcaLoadReportFuzzTestInputs/parse/}.
 */
class OrcaLoadReportFuzzTest {

    @FuzzTest(maxDuration = "15s")
    @DictionaryEntries({"TEXT ", "JSON ", "BIN ", "cpu_utilization", "mem_utilization", "application_utilization",
        "named_metrics.", "utilization.", "jvm_heap_used", "http_sessions_active", "cpuUtilization", "namedMetrics",
        "=", ":", ",", "e308", "e-324", "{\"", "\":", "}"})
    void parse(byte[] input) {
        Map<String, Double> metrics;
        try {
            metrics = OrcaLoadReport.parse(new String(input, StandardCharsets.UTF_8));
        } catch (MalformedLoadReportException expected) {
            return;
        }
        for (Map.Entry<String, Double> metric : metrics.entrySet()) {
            double value = metric.getValue();
            assertTrue(Double.isFinite(value) && value >= 0, () -> "accepted " + metric + " from " + show(input));
        }
        assertReencodes(metrics, input);
    }

    /** The carried metrics read back from their TEXT encoding to within its 4-decimal rounding. */
    private static void assertReencodes(Map<String, Double> metrics, byte[] input) {
        String text = OrcaLoadReport.encodeText(metrics);
        Map<String, Double> again;
        try {
            again = OrcaLoadReport.parse(text);
        } catch (MalformedLoadReportException e) {
            throw new AssertionError("own encoding '" + text + "' of " + show(input) + " is rejected: " + e.getMessage());
        }
        for (Map.Entry<String, Double> metric : metrics.entrySet()) {
            String name = metric.getKey();
            if (OrcaLoadReport.CARRIED_METRICS.contains(name) || name.equals(OrcaLoadReport.APP_UTILIZATION)) {
                double expected = metric.getValue();
                // 4 decimals of the wire value (a fraction for percentages, so 0.01 of a percentage), and
                // a relative allowance for huge values, which scaling by 100 and back does not keep exact
                double tolerance = 0.01 + Math.abs(expected) * 1e-12;
                assertEquals(expected, again.get(name), tolerance, () -> name + " after re-encoding '" + text + "'");
            }
        }
    }

    private static String show(byte[] input) {
        return "'" + new String(input, StandardCharsets.UTF_8) + "'";
    }
}
