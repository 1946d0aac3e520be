package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import java.util.Set;

/**
 * TAPR-08: the node with the lowest mean running time of the requests it completed in the last second
 * ({@link NodeView#recentResponseTimeMillis()}, read live).
 *
 * <p>A node without a measurement (NaN) is tried first when it has nothing in flight: it is new, has
 * recovered or was idle, and one request measures it. A node without a measurement but with requests
 * in flight has not finished anything for a second, so it ranks after every measured node instead of
 * attracting ever more traffic. Within the unmeasured ranks, least active connections decides.
 */
public final class FastestResponseTimePolicy implements LoadBalancingPolicy {

    private static final Set<PolicyInput> INPUTS = Set.of(PolicyInput.RESPONSE_TIMES);

    @Override
    public String id() {
        return "fastest-response-time";
    }

    @Override
    public String description() {
        return "Fastest response time: lowest mean response time over the last second, unmeasured nodes first";
    }

    @Override
    public Set<PolicyInput> inputs() {
        return INPUTS;
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return new ArgminPicker(snapshot, Load.INSTANCE);
    }

    enum Load implements NodeLoad {
        INSTANCE;

        static final int UNMEASURED_IDLE = 0;
        static final int MEASURED = 1;
        static final int UNMEASURED_BUSY = 2;

        @Override
        public int rank(NodeView node) {
            if (!Double.isNaN(node.recentResponseTimeMillis())) {
                return MEASURED;
            }
            return node.inFlightRequests() == 0 ? UNMEASURED_IDLE : UNMEASURED_BUSY;
        }

        @Override
        public int compare(NodeView a, NodeView b, int rank) {
            return Double.compare(key(a, rank), key(b, rank));
        }

        /** Each node's window is read once per pick for its rank and once for this, not on both sides of each comparison. */
        @Override
        public boolean keyed() {
            return true;
        }

        @Override
        public double key(NodeView node, int rank) {
            return rank == MEASURED ? node.recentResponseTimeMillis() : node.activeConnections();
        }
    }
}
