package io.loadwise.dispatcher.monitor;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyMetric;

/**
 * Test policy that reads agent metrics: picks the usable node with the lowest reported heap, and counts
 * how many pickers were built so tests can see the monitor rebuilding them.
 */
public final class AgentMetricsTestPolicy implements LoadBalancingPolicy {

    static final java.util.concurrent.atomic.AtomicInteger PICKERS_BUILT = new java.util.concurrent.atomic.AtomicInteger();

    @Override
    public String id() {
        return "test-lowest-heap";
    }

    @Override
    public String description() {
        return "test only: lowest JVM_HEAP_USED%";
    }

    @Override
    public boolean usesAgentMetrics() {
        return true;
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        PICKERS_BUILT.incrementAndGet();
        return avoid -> {
            NodeView best = null;
            double bestHeap = Double.MAX_VALUE;
            for (int i = 0; i < snapshot.size(); i++) {
                NodeView node = snapshot.node(i);
                if (!node.usable() || node.agentSample() == null) {
                    continue;
                }
                double heap = node.agentSample().value(PolicyMetric.JVM_HEAP_USED);
                if (heap < bestHeap) {
                    bestHeap = heap;
                    best = node;
                }
            }
            return best;
        };
    }
}
