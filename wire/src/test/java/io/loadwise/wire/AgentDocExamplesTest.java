package io.loadwise.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The header examples of docs/agent.md are what the codec writes and reads: each of the three forms is
 * the encoding of one report, and the table names each ORCA field the header carries.
 */
class AgentDocExamplesTest {

    private static final String PREFIX = "endpoint-load-metrics: ";

    private static String agentDoc() throws Exception {
        return Files.readString(Path.of("..", "docs", "agent.md"));
    }

    @Test
    void theThreeFormsInTheDocsAreTheEncodingOfOneReport() throws Exception {
        List<String> examples = new ArrayList<>();
        for (String line : agentDoc().split("\n")) {
            if (line.startsWith(PREFIX)) {
                examples.add(line.substring(PREFIX.length()));
            }
        }
        assertEquals(3, examples.size(), examples.toString());
        Map<String, Double> report = OrcaLoadReport.parse(examples.get(0));
        Map<String, Double> seed = new LinkedHashMap<>(report);
        assertEquals(OrcaLoadReport.Form.values().length, examples.size());
        for (int i = 0; i < examples.size(); i++) {
            OrcaLoadReport.Form form = OrcaLoadReport.Form.values()[i];
            assertEquals(OrcaLoadReport.encode(form, seed), examples.get(i), form + " example");
            assertEquals(report, OrcaLoadReport.parse(examples.get(i)), form + " example reads back");
        }
        assertEquals(120.5, report.get(FilterMetric.APP_RQST_RATE.metricName()));
        assertEquals(0.5, report.get(FilterMetric.APP_RQST_ERR_RATE.metricName()));
    }

    @Test
    void theFieldTableNamesEveryKeyTheHeaderCarries() throws Exception {
        String doc = agentDoc();
        for (String key : OrcaLoadReport.ORCA_KEYS) {
            assertTrue(doc.contains("| `" + key + "` |"), "docs/agent.md has no row for " + key);
        }
    }
}
