package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import java.util.Set;
import java.util.random.RandomGenerator;

/** TAPR-01: each usable node is picked with probability 1/k (k usable nodes), ignoring weights. */
public final class RandomPolicy implements LoadBalancingPolicy {

    @Override
    public String id() {
        return "random";
    }

    @Override
    public String description() {
        return "Random: each usable node with equal probability";
    }

    /** Nothing beyond configuration, flags and connection counts: usable in TCP clusters. */
    @Override
    public Set<PolicyInput> inputs() {
        return Set.of();
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return new RandomPicker(snapshot, env.random());
    }

    /**
     * One draw over all n nodes; only when it lands on an unusable or avoided node does it count the
     * eligible nodes and draw again among them. A good node is then hit with probability
     * 1/n + (n-k)/n * 1/k = 1/k, so the shortcut keeps the distribution uniform.
     */
    static final class RandomPicker implements Picker {

        private final ClusterSnapshot nodes;
        private final RandomGenerator random;
        private final Picker raceFallback;

        RandomPicker(ClusterSnapshot nodes, RandomGenerator random) {
            this.nodes = nodes;
            this.random = random;
            this.raceFallback = new ArgminPicker(nodes, ActiveConnectionsLoad.INSTANCE);
        }

        @Override
        public NodeView pick(NodeView avoid) {
            int n = nodes.size();
            NodeView first = nodes.node(n == 1 ? 0 : random.nextInt(n));
            if (first.selectable() && !Avoid.matches(first, avoid)) {
                return first;
            }
            int eligible = 0;
            NodeView avoided = null;
            for (int i = 0; i < n; i++) {
                NodeView node = nodes.node(i);
                if (node.selectable()) {
                    if (Avoid.matches(node, avoid)) {
                        avoided = node;
                    } else {
                        eligible++;
                    }
                }
            }
            if (eligible == 0) {
                return avoided;
            }
            int target = eligible == 1 ? 0 : random.nextInt(eligible);
            for (int i = 0; i < n; i++) {
                NodeView node = nodes.node(i);
                if (node.selectable() && !Avoid.matches(node, avoid) && target-- == 0) {
                    return node;
                }
            }
            // A node went down between the two passes: take whatever is still usable.
            return raceFallback.pick(avoid);
        }
    }
}
