package io.loadwise.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.loadwise.scenario.CapacityScenario;
import io.loadwise.scenario.Vcn3Queue;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeCapacityTest {

    @Test
    void table9HalvesOneResourceOfVcn3() {
        NodeCapacity full = new NodeCapacity(512, 12, 12, 10);
        assertEquals(full, NodeCapacity.BASELINE);
        for (CapacityScenario scenario : CapacityScenario.values()) {
            List<NodeCapacity> nodes = full.nodesIn(scenario, Vcn3Queue.SEED);
            assertEquals(CapacityScenario.NODES, nodes.size(), scenario.key());
            assertEquals(full, nodes.get(0), scenario.key());
            assertEquals(full, nodes.get(1), scenario.key());
            assertEquals(full.vcn3In(scenario, Vcn3Queue.SEED), nodes.get(2), scenario.key());
        }
        assertEquals(full, full.vcn3In(CapacityScenario.BASELINE, Vcn3Queue.SEED));
        assertEquals(new NodeCapacity(256, 12, 12, 10), full.vcn3In(CapacityScenario.HEAP, Vcn3Queue.SEED));
        assertEquals(new NodeCapacity(512, 6, 12, 10), full.vcn3In(CapacityScenario.HTTP_THREADS, Vcn3Queue.SEED));
        assertEquals(new NodeCapacity(512, 12, 12, 5), full.vcn3In(CapacityScenario.JDBC, Vcn3Queue.SEED));
        assertEquals(new NodeCapacity(256, 6, 12, 5), full.vcn3In(CapacityScenario.COMBINED, Vcn3Queue.SEED));
    }

    @Test
    void aHalfQueueGoesWithHalfTheThreadsOnly() {
        NodeCapacity full = new NodeCapacity(96, 12, 12, 10);
        assertEquals(new NodeCapacity(96, 6, 6, 10), full.vcn3In(CapacityScenario.HTTP_THREADS, Vcn3Queue.HALF));
        assertEquals(new NodeCapacity(48, 6, 6, 5), full.vcn3In(CapacityScenario.COMBINED, Vcn3Queue.HALF));
        assertEquals(new NodeCapacity(48, 12, 12, 10), full.vcn3In(CapacityScenario.HEAP, Vcn3Queue.HALF));
        assertEquals(new NodeCapacity(96, 12, 12, 5), full.vcn3In(CapacityScenario.JDBC, Vcn3Queue.HALF));
        assertEquals(full, full.vcn3In(CapacityScenario.BASELINE, Vcn3Queue.HALF));
    }

    @Test
    void aHalfBelowTheMinimumsIsAnErrorNotABiggerNode() {
        assertEquals("heapMb must be at least 32, got 24", assertThrows(IllegalArgumentException.class,
                () -> new NodeCapacity(48, 12, 12, 10).vcn3In(CapacityScenario.HEAP, Vcn3Queue.SEED)).getMessage());
        assertEquals("httpThreads must be at least 1, got 0", assertThrows(IllegalArgumentException.class,
                () -> new NodeCapacity(64, 1, 12, 10).vcn3In(CapacityScenario.HTTP_THREADS, Vcn3Queue.SEED))
                .getMessage());
        assertEquals("jdbcPool must be at least 1, got 0", assertThrows(IllegalArgumentException.class,
                () -> new NodeCapacity(64, 12, 12, 1).vcn3In(CapacityScenario.JDBC, Vcn3Queue.SEED)).getMessage());
        assertEquals(new NodeCapacity(32, 12, 12, 1), new NodeCapacity(64, 12, 12, 1)
                .vcn3In(CapacityScenario.HEAP, Vcn3Queue.SEED), "a pool of one is fine where the pool is not halved");
    }

    @Test
    void table9NodesAreVcn1To3OnTheGivenPorts() {
        List<NodeSpec> nodes = NodeSpec.table9(CapacityScenario.COMBINED, List.of(8081, 8082, 8083));
        assertEquals(List.of("VCN1", "VCN2", "VCN3"), nodes.stream().map(NodeSpec::name).toList());
        assertEquals(List.of(8081, 8082, 8083), nodes.stream().map(NodeSpec::port).toList());
        assertEquals(List.of(NodeCapacity.BASELINE, NodeCapacity.BASELINE, new NodeCapacity(256, 6, 12, 5)),
                nodes.stream().map(NodeSpec::capacity).toList(), "Table 9 keeps VCN3's queue");
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
