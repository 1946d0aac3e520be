package io.loadwise.policy.builtin;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.PolicyMetric;

/**
 * Load signal of the agent-driven "least" policies: a per-node load computed from the agent samples
 * when the picker is built, so the pick path reads one array element.
 *
 * <ul>
 *   <li>rank 0, "known": the node has a fresh sample with the needed metrics; ordered by load.</li>
 *   <li>rank 1, "unknown": no fresh sample, or a needed metric missing (load NaN); used only when no
 *       known node is usable, and ordered among themselves by live active connections.</li>
 * </ul>
 */
final class AgentLoad implements NodeLoad {

    private final double[] load;

    /** @param load per node index; NaN marks a node without usable metrics */
    AgentLoad(double[] load) {
        this.load = load;
    }

    /** Load = the value of one agent metric (NaN when the sample is missing, stale or lacks it). */
    static AgentLoad ofMetric(ClusterSnapshot snapshot, PolicyMetric metric) {
        double[] load = new double[snapshot.size()];
        for (int i = 0; i < load.length; i++) {
            AgentSample sample = snapshot.node(i).agentSample();
            load[i] = sample == null ? Double.NaN : sample.value(metric);
        }
        return new AgentLoad(load);
    }

    @Override
    public int rank(NodeView node) {
        return Double.isNaN(load[node.index()]) ? 1 : 0;
    }

    @Override
    public boolean frozenRankZero() {
        return true;
    }

    @Override
    public int compare(NodeView a, NodeView b, int rank) {
        return rank == 0
                ? Double.compare(load[a.index()], load[b.index()])
                : Integer.compare(a.activeConnections(), b.activeConnections());
    }
}
