package io.loadwise.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.bench.sweep.SweepSettings;
import io.loadwise.node.NodeCapacity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What bench sweep puts on the nodes' command lines for --gc-pressure and --agent-noise. */
class NodePropertiesTest {

    private static SweepSettings settings(double agentNoise, String gcPressure) {
        return new SweepSettings("sweep", List.of("baseline"), List.of("http-adaptive"), 0.05, 60,
                NodeCapacity.BASELINE.withHeapMb(96), "half", 0L, 10_000L, 0, 0, "tomcat", "trade-scenario.jmx", true,
                agentNoise, gcPressure, "per-connection", 1000, 3, "a test", 16, null);
    }

    @Test
    void gcPressureIsOneNodesOption() {
        SweepSettings pressured = settings(0, "VCN3:100:40");
        assertEquals("VCN3", pressured.gcPressureNode());
        assertEquals("100:40", pressured.gcPressureSetting());
        assertEquals(Map.of("VCN3", List.of("-Dloadwise.bench.gcPressure=100:40")), SweepCommand.nodeProperties(pressured));
        assertEquals(Map.of(), SweepCommand.nodeProperties(settings(0, null)));
    }

    @Test
    void agentNoiseInstallsTheReadingsTransformOnEveryNode() {
        List<String> properties = SweepCommand.appProperties(settings(0.2, null));
        assertTrue(properties.contains("-Dloadwise.agent.readings.transform=io.loadwise.node.NoisyReadings"), properties.toString());
        assertTrue(properties.contains("-Dloadwise.bench.agent.noise=0.2"), properties.toString());
        assertTrue(SweepCommand.appProperties(settings(0, null)).stream().noneMatch(p -> p.contains("readings.transform")));
    }

    @Test
    void mistakesNameTheOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> settings(0, "VCN3=100"));
        assertEquals("--gc-pressure: expected NODE:PERIOD_MS[:BALLAST_MB], e.g. VCN3:100:40, got 'VCN3=100'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> settings(1.5, null));
        assertEquals("--agent-noise must be at least 0 and below 1, got 1.5", e.getMessage());
    }
}
