package io.loadwise.agent.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.xds.data.orca.v3.OrcaLoadReport;
import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The agent's header in BIN form, decoded with the xDS {@code OrcaLoadReport} classes that Envoy's and
 * gRPC's Java stacks are generated from (test scope only): what a client of the standard reads is what
 * the agent meant, field by field, and the fields gRPC's weighted round robin needs are there.
 */
class OrcaBinaryFormProtobufTest {

    private static final MetricSource NODE = new MetricSource() {
        @Override
        public MetricGroup group() {
            return MetricGroup.APP_SERVER;
        }

        @Override
        public void collect(MetricSink sink) {
            sink.put("OS_CPU_USED%", 23);
            sink.put("OS_MEM_USED%", 41);
            sink.put("APP_RQST_RATE", 120.5);
            sink.put("APP_RQST_ERR_RATE", 0.5);
            sink.put("APP_UTILIZATION%", 61);
            sink.put("JVM_HEAP_USED%", 45);
            sink.put("AMX_SESSIONS_ACT", 12);
            sink.put("JVM_THREADS", 80); // not an ORCA field
        }
    };

    private static OrcaLoadReport agentReport(io.loadwise.wire.OrcaLoadReport.Form form) throws Exception {
        Sampler sampler = new Sampler(List.of(NODE), List.of(NODE), Map::of, () -> 1L, form);
        sampler.sampleFull();
        String header = sampler.latest().orcaHeader();
        assertTrue(header.startsWith("BIN "), header);
        return OrcaLoadReport.parseFrom(Base64.getDecoder().decode(header.substring(4)));
    }

    @Test
    void theStandardProtobufClassesReadEveryFieldAsMeant() throws Exception {
        OrcaLoadReport report = agentReport(io.loadwise.wire.OrcaLoadReport.Form.BIN);
        assertEquals(0.23, report.getCpuUtilization(), 1e-12);
        assertEquals(0.41, report.getMemUtilization(), 1e-12);
        assertEquals(120.5, report.getRpsFractional(), 1e-12);
        assertEquals(0.5, report.getEps(), 1e-12);
        assertEquals(0.61, report.getApplicationUtilization(), 1e-12);
        assertEquals(Map.of("jvm_heap_used", 0.45, "http_sessions_active", 12.0), report.getNamedMetricsMap());
        assertEquals(0, report.getRps(), "the deprecated integer rps stays unset");
        assertTrue(report.getUtilizationMap().isEmpty() && report.getRequestCostMap().isEmpty());
        assertTrue(report.getUnknownFields().asMap().isEmpty(), "no field the standard does not define");
    }

    /** gRPC A58 with the default penalty: 120.5 / (0.61 + 0.5 / 120.5) is far from the 0 a client got before. */
    @Test
    void aGrpcClientComputesANonZeroWeight() throws Exception {
        OrcaLoadReport report = agentReport(io.loadwise.wire.OrcaLoadReport.Form.BIN);
        double utilization = report.getApplicationUtilization() > 0 ? report.getApplicationUtilization()
                : report.getCpuUtilization();
        double weight = report.getRpsFractional()
                / (utilization + report.getEps() / report.getRpsFractional() * 1.0);
        assertEquals(196.2, weight, 0.1);
    }

    @Test
    void theDispatchersOwnReaderAgreesWithTheStandardOne() throws Exception {
        OrcaLoadReport report = agentReport(io.loadwise.wire.OrcaLoadReport.Form.BIN);
        String rewritten = "BIN " + Base64.getEncoder().encodeToString(report.toByteArray());
        Map<String, Double> parsed = io.loadwise.wire.OrcaLoadReport.parse(rewritten);
        assertEquals(120.5, parsed.get("APP_RQST_RATE"), 1e-9);
        assertEquals(61.0, parsed.get("APP_UTILIZATION%"), 1e-9);
        assertEquals(12.0, parsed.get("AMX_SESSIONS_ACT"), 1e-9);
        assertFalse(parsed.containsKey("JVM_THREADS"));
    }
}
