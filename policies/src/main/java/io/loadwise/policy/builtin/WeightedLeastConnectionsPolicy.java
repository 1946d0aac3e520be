package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import java.util.Set;

/**
 * TAPR-10: fewest active connections relative to capacity (the static weight). The key is
 * {@code (active + 1) / weight}, as in HAProxy's leastconn: counting the connection about to be added
 * makes idle nodes of different weights distinct (plain {@code active / weight} ties them all at 0), so
 * a 3:1 pair fills up 3:1 from the first connection on. Keys are compared by cross-multiplication in
 * {@code long}, exactly and without floating point.
 */
public final class WeightedLeastConnectionsPolicy implements LoadBalancingPolicy {

    @Override
    public String id() {
        return "weighted-least-connections";
    }

    @Override
    public String description() {
        return "Weighted least connections: fewest (active + 1) / weight, ties rotate";
    }

    /** Nothing beyond configuration, flags and connection counts: usable in TCP clusters. */
    @Override
    public Set<PolicyInput> inputs() {
        return Set.of();
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return new ArgminPicker(snapshot, Load.INSTANCE);
    }

    enum Load implements NodeLoad {
        INSTANCE;

        @Override
        public int rank(NodeView node) {
            return 0;
        }

        @Override
        public int compare(NodeView a, NodeView b, int rank) {
            long left = (a.activeConnections() + 1L) * Math.max(1, b.weight());
            long right = (b.activeConnections() + 1L) * Math.max(1, a.weight());
            return Long.compare(left, right);
        }
    }
}
