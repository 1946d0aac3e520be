package io.loadwise.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.node.NodeCapacity;
import io.loadwise.scenario.CapacityScenario;
import io.loadwise.scenario.Vcn3Queue;
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

    /** Issue 32 item 6: adaptive with its GC thresholds on, beside adaptive with its defaults, in one sweep. */
    @Test
    void aRowCarriesPolicyOptionsInItsKeyAndLabel() {
        PolicyRow gc = PolicyRow.parse("http-adaptive+oldGenThreshold=90+gcTimeThreshold=25");
        assertEquals("http-adaptive+gcTimeThreshold=25+oldGenThreshold=90", gc.key(), "options sorted by name");
        assertEquals(java.util.Map.of("gcTimeThreshold", 25.0, "oldGenThreshold", 90.0), gc.options());
        assertEquals("HTTP Adaptive (Loadwise) (gcTimeThreshold 25, oldGenThreshold 90)", gc.label());
        assertEquals(gc, PolicyRow.parse(gc.key()), "the key parses back");
        assertEquals(gc, PolicyRow.parse(gc.toString()), "and so does its text (the sweep's run lists use it)");
        assertNotEquals(PolicyRow.parse("http-adaptive"), gc, "a row with options is another row");
        assertEquals("http-weighted-least-connections+x=0.5",
                PolicyRow.parse("http-weighted-least-connections+x=0.5").key(), "a seed row takes options too");
        for (String bad : List.of("http-adaptive+", "http-adaptive+x", "http-adaptive+x=abc", "http-adaptive+x=NaN",
                "http-adaptive+1x=2", "http-adaptive+x=1+x=2")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PolicyRow.parse(bad), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    /** The peer baselines (issue 31) are sweep rows under their registry ids, labelled as what they are. */
    @Test
    void thePeerBaselinesAreRowsOfRegisteredPolicies() {
        io.loadwise.policy.PolicyRegistry registry = io.loadwise.policy.PolicyRegistry.load();
        PolicyRow p2c = PolicyRow.parse("http-p2c-least-request");
        assertEquals("http-p2c-least-request", p2c.key());
        assertEquals("HTTP P2C least request (Envoy's default)", p2c.label());
        PolicyRow orca = PolicyRow.parse("http-orca-wrr");
        assertEquals("HTTP ORCA weighted round robin (gRPC A58)", orca.label());
        assertEquals(List.of(1, 1, 1), orca.weights());
        assertEquals(List.of(2, 2, 1), PolicyRow.parse("http-p2c-least-request@2:2:1").weights(),
                "Envoy's active-request bias has weights to work on");
        for (PolicyRow row : List.of(p2c, orca, PolicyRow.parse("tcp-p2c-least-request"))) {
            assertTrue(registry.contains(row.policyId()), row.policyId());
        }
        assertTrue(registry.get("p2c-least-request").inputs().isEmpty(), "tcp-p2c-least-request runs: no inputs");
    }

    @Test
    void scenariosHalveOnlyTheThirdNode() {
        CapacityPlan plan = CapacityPlan.withHeap(96);
        List<NodeCapacity> combined = plan.capacities(CapacityScenario.COMBINED);
        assertEquals(new NodeCapacity(96, 12, 12, 10), combined.get(0));
        assertEquals(combined.get(0), combined.get(1));
        assertEquals(new NodeCapacity(48, 6, 12, 5), combined.get(2));
        assertEquals(new NodeCapacity(96, 12, 12, 5), plan.capacities(CapacityScenario.JDBC).get(2));
    }

    @Test
    void aHalfQueueHalvesVcn3sQueueWhereverItsThreadsAreHalved() {
        CapacityPlan half = new CapacityPlan(new NodeCapacity(96, 12, 12, 10), Vcn3Queue.HALF);
        assertEquals(new NodeCapacity(96, 6, 6, 10), half.capacities(CapacityScenario.HTTP_THREADS).get(2));
        assertEquals(new NodeCapacity(48, 6, 6, 5), half.capacities(CapacityScenario.COMBINED).get(2));
        assertEquals(new NodeCapacity(48, 12, 12, 10), half.capacities(CapacityScenario.HEAP).get(2), "threads kept, queue kept");
        assertEquals(new NodeCapacity(96, 12, 12, 5), half.capacities(CapacityScenario.JDBC).get(2));
        assertEquals(new NodeCapacity(96, 12, 12, 10), half.capacities(CapacityScenario.COMBINED).get(0), "VCN1 stays full");
        assertEquals(half.capacities(CapacityScenario.BASELINE).get(0), half.capacities(CapacityScenario.BASELINE).get(2));
        CapacityPlan seed = new CapacityPlan(new NodeCapacity(96, 12, 12, 10));
        assertEquals(Vcn3Queue.SEED, seed.vcn3Queue(), "Table 9 by default");
        assertEquals(new NodeCapacity(96, 6, 12, 10), seed.capacities(CapacityScenario.HTTP_THREADS).get(2));
        assertEquals(1, new CapacityPlan(new NodeCapacity(96, 12, 1, 10), Vcn3Queue.HALF)
                .capacities(CapacityScenario.HTTP_THREADS).get(2).acceptQueue(), "never below one");
        assertTrue(half.describe(CapacityScenario.COMBINED).endsWith("VCN3 48 MB, 6 threads, queue 6, 5 JDBC"),
                half.describe(CapacityScenario.COMBINED));
    }
}
