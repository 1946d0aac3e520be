package io.loadwise.bench.dispatcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
