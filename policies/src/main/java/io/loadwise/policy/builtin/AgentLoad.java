package io.loadwise.policy.builtin;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.PolicyMetric;

/**
 * Load signal of the agent-driven "least" policies over the nodes they can judge: the value of one agent
 * metric, computed when the picker is built, so the pick path reads one array element. A node without
 * the value (no fresh sample, or the metric missing) is {@link NodeLoad#EXCLUDED} here: it is not down,
 * {@link UnknownSharePicker} serves it with a selector of its own.
 */
final class AgentLoad implements NodeLoad {

    private final double[] load;

    /** @param load per node index; NaN marks a node without usable metrics */
    AgentLoad(double[] load) {
        this.load = load;
    }

    /** The value of one agent metric per node index; NaN when the sample is missing, stale or lacks it. */
    static double[] metricValues(ClusterSnapshot snapshot, PolicyMetric metric) {
        double[] values = new double[snapshot.size()];
        for (int i = 0; i < values.length; i++) {
            AgentSample sample = snapshot.node(i).agentSample();
            values[i] = sample == null ? Double.NaN : sample.value(metric);
        }
        return values;
    }

    @Override
    public int rank(NodeView node) {
        return Double.isNaN(load[node.index()]) ? EXCLUDED : 0;
    }

    @Override
    public boolean frozenRankZero() {
        return true;
    }

    @Override
    public int compare(NodeView a, NodeView b, int rank) {
        return Double.compare(load[a.index()], load[b.index()]);
    }
}
