package io.loadwise.sim.testpolicy;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyMetric;

/**
 * Test-scope dynamic policy: at picker build time it reads every node's sample and sends all traffic to
 * the node reporting the lowest CPU (node 0 when none reported). It counts its rebuilds, which lets a
 * test see that the simulator rebuilds pickers on sample deliveries.
 */
public final class TestAgentCpu implements LoadBalancingPolicy {

    public static int builds;

    @Override
    public String id() {
        return "test-agent-cpu";
    }

    @Override
    public String description() {
        return "test stand-in: node with lowest reported CPU at build time";
    }

    @Override
    public boolean usesAgentMetrics() {
        return true;
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        builds++;
        NodeView best = snapshot.node(0);
        double bestCpu = Double.POSITIVE_INFINITY;
        for (int i = 0; i < snapshot.size(); i++) {
            AgentSample s = snapshot.node(i).agentSample();
            if (s != null && s.value(PolicyMetric.OS_CPU_USED) < bestCpu) {
                bestCpu = s.value(PolicyMetric.OS_CPU_USED);
                best = snapshot.node(i);
            }
        }
        NodeView chosen = best;
        return avoid -> chosen;
    }
}
