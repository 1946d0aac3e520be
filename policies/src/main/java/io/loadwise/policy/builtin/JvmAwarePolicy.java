package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyOptions;
import java.util.List;

/**
 * JPR-01/02 (jQoStdV1): the node with the least {@link JvmAwareLoad} (Equation 2), computed from the
 * agent samples when the picker is built, corrected between samples by the connections each node has
 * taken since ({@link HeadroomLoad}: fewest {@code (active + 1) / (100 - load)}); ties rotate. Saturated
 * nodes (load 100) are never picked,
 * not even as a last resort: if every node is saturated or down the pick returns {@code null} and the
 * dispatcher refuses the request rather than push a server into failure. Nodes without fresh metrics
 * are used only when no node with metrics is usable (then by least connections).
 */
public final class JvmAwarePolicy implements LoadBalancingPolicy {

    @Override
    public String id() {
        return "jvm-aware";
    }

    @Override
    public String description() {
        return "JVM-aware (jQoStdV1): least mean of CPU, I/O wait, queue, threads, JDBC and heap use, spread"
                + " between samples by live connections per headroom; excludes saturated nodes";
    }

    @Override
    public boolean usesAgentMetrics() {
        return true;
    }

    @Override
    public List<String> validate(PolicyOptions options) {
        return JvmAwareLoad.validate(options);
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        JvmAwareLoad formula = JvmAwareLoad.from(env.options());
        double[] load = new double[snapshot.size()];
        for (int i = 0; i < load.length; i++) {
            load[i] = formula.load(snapshot.node(i).agentSample());
        }
        return new ArgminPicker(snapshot, new HeadroomLoad(load));
    }
}
