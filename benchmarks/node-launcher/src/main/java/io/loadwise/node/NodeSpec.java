package io.loadwise.node;

import io.loadwise.scenario.CapacityScenario;
import io.loadwise.scenario.Vcn3Queue;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One node to start: its name (also its jvmRoute), HTTP port (0 = any free port) and capacity.
 */
public record NodeSpec(String name, int port, NodeCapacity capacity) {

    public NodeSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(capacity, "capacity");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
        }
    }

    /**
     * The seed's three-node cluster VCN1..3 on the given ports, with Table 9 capacities: full nodes of
     * {@link NodeCapacity#BASELINE}, VCN3 halved as {@code scenario} says, its queue kept as the table keeps it.
     */
    public static List<NodeSpec> table9(CapacityScenario scenario, List<Integer> ports) {
        if (ports.size() != CapacityScenario.NODES) {
            throw new IllegalArgumentException("Table 9 has " + CapacityScenario.NODES + " nodes, got "
                    + ports.size() + " ports");
        }
        List<NodeCapacity> capacities = NodeCapacity.BASELINE.nodesIn(scenario, Vcn3Queue.SEED);
        List<NodeSpec> nodes = new ArrayList<>(ports.size());
        for (int i = 0; i < ports.size(); i++) {
            nodes.add(new NodeSpec("VCN" + (i + 1), ports.get(i), capacities.get(i)));
        }
        return List.copyOf(nodes);
    }
}
