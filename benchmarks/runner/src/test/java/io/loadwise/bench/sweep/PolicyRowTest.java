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
    void anUnknownRowListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PolicyRow.parse("tcp-jvm-aware"));
        assertTrue(e.getMessage().contains("http-jvm-aware"), e.getMessage());
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
