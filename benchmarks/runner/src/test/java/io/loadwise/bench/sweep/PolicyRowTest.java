package io.loadwise.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.node.CapacityScenario;
import io.loadwise.node.NodeCapacity;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyRowTest {

    @Test
    void theTwelveRowsOfTable10WithTheirWeights() {
        assertEquals(12, PolicyRow.values().length);
        assertEquals(12, Arrays.stream(PolicyRow.values()).map(PolicyRow::key).distinct().count());
        assertEquals(List.of(2, 2, 1), PolicyRow.TCP_STATIC_WRR.weights());
        assertEquals(List.of(2, 2, 1), PolicyRow.HTTP_WEIGHTED_LEAST_CONNECTIONS.weights());
        assertEquals("1:1:1", PolicyRow.HTTP_JVM_AWARE.weightRatio());
        assertEquals(3, Arrays.stream(PolicyRow.values()).filter(r -> r.mode().equals("tcp")).count());
        assertEquals(PolicyRow.HTTP_F5_DYNAMIC_RATIO, PolicyRow.parse("http-f5-dynamic-ratio"));
    }

    @Test
    void aRowThatIsNoPolicyListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PolicyRow.parse("jvm-aware"));
        assertTrue(e.getMessage().contains("http-jvm-aware"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PolicyRow.parse("udp-random"));
        assertThrows(IllegalArgumentException.class, () -> PolicyRow.parse("http-"));
    }

    @Test
    void theChangedJvmAwareRowSaysItDepartsFromTheSeed() {
        assertEquals("HTTP JVM-aware, headroom-weighted (departure from the seed)", PolicyRow.HTTP_JVM_AWARE.label());
    }

    @Test
    void anyOtherPolicyIdIsARowWithoutAListInTheCode() {
        PolicyRow classic = PolicyRow.parse("http-jvm-aware-classic");
        assertEquals("http-jvm-aware-classic", classic.key());
        assertEquals("jvm-aware-classic", classic.policyId());
        assertEquals("HTTP JVM-aware classic (the seed's jQoStdV1Policy, Equation 2 argmin)", classic.label());
        PolicyRow adaptive = PolicyRow.parse("HTTP-Adaptive");
        assertEquals("http-adaptive", adaptive.key());
        assertEquals("1:1:1", adaptive.weightRatio());
        PolicyRow weighted = PolicyRow.parse("http-adaptive@2:2:1");
        assertEquals(List.of(2, 2, 1), weighted.weights());
        assertEquals(weighted, PolicyRow.parse(weighted.key()), "the key parses back");
        assertEquals("HTTP my-plugin", PolicyRow.parse("http-my-plugin").label());
        assertEquals(PolicyRow.HTTP_STATIC_WRR, PolicyRow.parse("http-static-wrr@2:2:1"), "a seed row stays itself");
        assertEquals(12, PolicyRow.values().length, "the default sweep is still the seed's twelve");
    }

    @Test
    void scenariosHalveOnlyTheThirdNode() {
        CapacityPlan plan = CapacityPlan.withHeap(96);
        List<NodeCapacity> combined = plan.capacities(CapacityScenario.COMBINED);
        assertEquals(new NodeCapacity(96, 12, 12, 10), combined.get(0));
        assertEquals(combined.get(0), combined.get(1));
        assertEquals(new NodeCapacity(48, 6, 12, 5), combined.get(2));
        assertEquals(new NodeCapacity(96, 12, 12, 5), plan.capacities(CapacityScenario.JDBC).get(2));
        assertEquals(CapacityScenario.HTTP_THREADS, CapacityPlan.parseScenario("http-threads"));
        assertThrows(IllegalArgumentException.class, () -> CapacityPlan.parseScenario("disk"));
    }
}
