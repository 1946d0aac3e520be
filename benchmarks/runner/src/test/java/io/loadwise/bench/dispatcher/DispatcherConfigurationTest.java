package io.loadwise.bench.dispatcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadwise.bench.sweep.PolicyRow;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The configuration a sweep cell starts the shipped jar with. */
class DispatcherConfigurationTest {

    private static JsonNode cluster(String row) {
        return DispatcherProcess.configuration(PolicyRow.parse(row), false, List.of(), "/agent", "token",
                Path.of("/tmp/data")).path("clusters").get(0);
    }

    @Test
    void aRowsOptionsBecomeTheClustersPolicyOptions() {
        JsonNode gc = cluster("http-adaptive+gcTimeThreshold=25+oldGenThreshold=90");
        assertEquals("adaptive", gc.path("policy").asText());
        assertEquals(25.0, gc.path("policyOptions").path("gcTimeThreshold").asDouble());
        assertEquals(90.0, gc.path("policyOptions").path("oldGenThreshold").asDouble());
        assertEquals(2, gc.path("policyOptions").size());
        assertTrue(cluster("http-adaptive").path("policyOptions").isMissingNode(), "no options, no policyOptions");
    }

    @Test
    void aDisabledNodeRowStartsThatNodeDisabledAndPassesNoSuchPolicyOption() {
        List<io.loadwise.bench.provision.BackendNode> nodes = List.of(
                new io.loadwise.bench.provision.BackendNode("VCN1", "127.0.0.1", 9001, "VCN1"),
                new io.loadwise.bench.provision.BackendNode("VCN2", "127.0.0.1", 9002, "VCN2"),
                new io.loadwise.bench.provision.BackendNode("VCN3", "127.0.0.1", 9003, "VCN3"));
        JsonNode cluster = DispatcherProcess.configuration(PolicyRow.parse("http-round-robin+disabledNode=3"), false, nodes,
                "/agent", "token", Path.of("/tmp/data")).path("clusters").get(0);
        assertTrue(cluster.path("policyOptions").isMissingNode(), "not a policy option: " + cluster);
        assertEquals(List.of("missing", "missing", "false"), List.of(
                enabled(cluster, 0), enabled(cluster, 1), enabled(cluster, 2)));
        JsonNode both = DispatcherProcess.configuration(PolicyRow.parse("http-adaptive+gcTimeThreshold=25+disabledNode=1"),
                false, nodes, "/agent", "token", Path.of("/tmp/data")).path("clusters").get(0);
        assertEquals(1, both.path("policyOptions").size(), both.toString());
        assertEquals("false", enabled(both, 0));
        assertThrows(IllegalArgumentException.class, () -> PolicyRow.parse("http-round-robin+disabledNode=4"));
        assertThrows(IllegalArgumentException.class, () -> PolicyRow.parse("http-round-robin+disabledNode=0"));
    }

    private static String enabled(JsonNode cluster, int node) {
        JsonNode value = cluster.path("nodes").get(node).path("enabled");
        return value.isMissingNode() ? "missing" : value.asText();
    }
}
