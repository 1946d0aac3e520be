package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyOptions;
import java.util.List;
import java.util.Set;

/**
 * JPR-02 of seed 001 as the seed specifies it: each new request goes to the node with the least
 * {@link JvmAwareLoad} (Equation 2), and a node whose load is 100 (queue or heap over its threshold) is
 * excluded, even as the last resort for {@code avoid}. The loads are computed from the agent samples
 * when the picker is built and sorted once, so between two samples every request goes to the same
 * node; ties rotate. This is the rule {@code jvm-aware} departs from (it weighs live connections by the
 * headroom instead); it is kept to reproduce the seed's tables.
 *
 * <p>A node without fresh metrics is "unknown" and takes the share of an average node, one pick in n by
 * least connections among the unknown nodes, as under least-loaded ({@link UnknownSharePicker}): an
 * argmin never picks a node valued at the cluster's average. An unknown node is never excluded.
 */
public final class JvmAwareClassicPolicy implements LoadBalancingPolicy {

    private static final Set<PolicyInput> INPUTS = Set.of(PolicyInput.AGENT_METRICS);

    @Override
    public String id() {
        return "jvm-aware-classic";
    }

    @Override
    public String description() {
        return "JVM-aware as seed 001 specifies it (jQoStdV1, Equation 2): least mean of CPU, I/O wait, queue,"
                + " threads, JDBC and heap use at the last sample; excludes saturated nodes";
    }

    @Override
    public Set<PolicyInput> inputs() {
        return INPUTS;
    }

    @Override
    public List<String> validate(PolicyOptions options) {
        return JvmAwareLoad.validateSeed(options);
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        double[] load = JvmAwareLoad.from(env.options()).loads(snapshot);
        return UnknownSharePicker.over(snapshot, load, JvmAwareLoad.SATURATED);
    }
}
