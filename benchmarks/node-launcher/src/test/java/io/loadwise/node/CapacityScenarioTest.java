package io.loadwise.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class CapacityScenarioTest {

    @Test
    void table9HalvesOneResourceOfVcn3() {
        NodeCapacity full = new NodeCapacity(512, 12, 12, 10);
        for (CapacityScenario scenario : CapacityScenario.values()) {
            assertEquals(full, scenario.capacity(0), scenario.name());
            assertEquals(full, scenario.capacity(1), scenario.name());
        }
        assertEquals(full, CapacityScenario.BASELINE.capacity(2));
        assertEquals(new NodeCapacity(256, 12, 12, 10), CapacityScenario.HEAP.capacity(2));
        assertEquals(new NodeCapacity(512, 6, 12, 10), CapacityScenario.HTTP_THREADS.capacity(2));
        assertEquals(new NodeCapacity(512, 12, 12, 5), CapacityScenario.JDBC.capacity(2));
        assertEquals(new NodeCapacity(256, 6, 12, 5), CapacityScenario.COMBINED.capacity(2));
    }

    @Test
    void table9NodesAreVcn1To3OnTheGivenPorts() {
        List<NodeSpec> nodes = NodeSpec.table9(CapacityScenario.COMBINED, List.of(8081, 8082, 8083));
        assertEquals(List.of("VCN1", "VCN2", "VCN3"), nodes.stream().map(NodeSpec::name).toList());
        assertEquals(List.of(8081, 8082, 8083), nodes.stream().map(NodeSpec::port).toList());
        assertEquals(256, nodes.get(2).capacity().heapMb());
        assertEquals("Table 9 has 3 nodes, got 2 ports", assertThrows(IllegalArgumentException.class,
                () -> NodeSpec.table9(CapacityScenario.BASELINE, List.of(1, 2))).getMessage());
    }

    @Test
    void capacityRejectsUselessValues() {
        assertEquals("heapMb must be at least 32, got 16",
                assertThrows(IllegalArgumentException.class, () -> new NodeCapacity(16, 1, 1, 1)).getMessage());
        assertEquals("jdbcPool must be at least 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> new NodeCapacity(64, 1, 1, 0)).getMessage());
    }
}
