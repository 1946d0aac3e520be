package io.loadwise.policy.builtin;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.PolicyMetric;

/**
 * Load signal of the agent-driven "least" policies over the nodes they can judge: the value of one agent
 * metric, computed when the picker is built, so the pick path reads one array element. A node without
 * the value (no fresh sample, or the metric missing) is {@link NodeLoad#EXCLUDED} here: it is not down,
 * {@link UnknownSharePicker} serves it with a selector of its own. A policy may also exclude the nodes
 * whose value reaches a saturation level (jvm-aware-classic's load 100): those are never picked.
 */
final class AgentLoad implements NodeLoad {

    private final double[] load;
    private final double saturatedFrom;

    /** @param load per node index; NaN marks a node without usable metrics */
    AgentLoad(double[] load) {
        this(load, Double.POSITIVE_INFINITY);
    }

    /**
     * @param load per node index; NaN marks a node without usable metrics
     * @param saturatedFrom a node whose load is at least this is excluded, even as a last resort
     */
    AgentLoad(double[] load, double saturatedFrom) {
        this.load = load;
        this.saturatedFrom = saturatedFrom;
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
        double value = load[node.index()];
        return Double.isNaN(value) || value >= saturatedFrom ? EXCLUDED : 0;
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
