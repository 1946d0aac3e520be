package io.loadwise.dispatcher.cluster;

import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import java.util.random.RandomGenerator;

/**
 * Slow start over any policy: while some nodes ramp up, the policy's pick of such a node stands only
 * with the probability of its ramp factor f; otherwise the policy picks again, avoiding it, and the rest
 * goes where the policy sends it next. Under the round robins the node behaves exactly as if its weight
 * were multiplied by f (a rejected turn hands the next slot over, so a node of weight w among others of
 * total W gets f w / (f w + W)); under random, least-* and the agent-driven policies it keeps f of the
 * picks the policy gives it. When no other node is usable it keeps the pick: slow start never
 * fails a request.
 *
 * <p>Published by {@link VirtualCluster} only while a node ramps, so a cluster without ramping nodes picks
 * through the policy's own picker at no extra cost. Immutable; the factors are recomputed off the pick
 * path ({@link SlowStart#tick()}) and a new instance is published.
 */
final class RampingPicker implements Picker {

    private final Picker policy;
    /** Per node index: the share of its picks a node keeps, 1 for nodes not ramping. */
    private final double[] factors;
    private final RandomGenerator random;

    RampingPicker(Picker policy, double[] factors, RandomGenerator random) {
        this.policy = policy;
        this.factors = factors;
        this.random = random;
    }

    @Override
    public NodeView pick(NodeView avoid) {
        NodeView node = policy.pick(avoid);
        if (node == null) {
            return null;
        }
        double factor = factors[node.index()];
        if (factor >= 1 || random.nextDouble() < factor) {
            return node;
        }
        NodeView other = policy.pick(node);
        // The policy returns the ramping node again only when nothing else is usable; the node that just
        // failed for this request is no better than the ramping one.
        return other == null || other == avoid ? node : other;
    }

    Picker policy() {
        return policy;
    }
}
