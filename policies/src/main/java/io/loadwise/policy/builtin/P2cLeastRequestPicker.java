package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import java.util.random.RandomGenerator;

/**
 * The selector of {@link P2cLeastRequestPolicy}. Two distinct nodes are drawn uniformly (the second from
 * n - 1 and shifted past the first, as Finagle's P2C; Envoy draws with replacement and so wastes a choice
 * on the same host once in n picks); the better one wins, the first drawn on a tie, as in Envoy. A drawn
 * node that cannot be picked (unusable, full, or {@code avoid}) is redrawn up to {@link #REDRAWS} times;
 * after that one pass over all nodes takes the best eligible one, and {@code avoid} only when nothing else
 * is left.
 *
 * <p>Weights are read into an array at build time; a pick reads two live counters, draws twice and, for
 * unequal weights with a bias other than 0 or 1, calls {@link Math#pow} twice: no allocation, no lock.
 */
final class P2cLeastRequestPicker implements Picker {

    /** How often a drawn node that cannot be picked is replaced before falling back to a full pass. */
    static final int REDRAWS = 3;

    private final ClusterSnapshot nodes;
    private final RandomGenerator random;
    private final int[] weights;
    /** False when every weight is equal: then fewer in flight wins whatever the bias, as in Envoy. */
    private final boolean weighted;
    private final double bias;

    P2cLeastRequestPicker(ClusterSnapshot nodes, double bias, RandomGenerator random) {
        this.nodes = nodes;
        this.random = random;
        this.bias = bias;
        this.weights = new int[nodes.size()];
        boolean unequal = false;
        for (int i = 0; i < weights.length; i++) {
            weights[i] = Math.max(1, nodes.node(i).weight());
            unequal |= weights[i] != weights[0];
        }
        this.weighted = unequal;
    }

    @Override
    public NodeView pick(NodeView avoid) {
        int n = nodes.size();
        if (n == 1) {
            return pass(avoid);
        }
        int a = random.nextInt(n);
        int b = random.nextInt(n - 1);
        b = b >= a ? b + 1 : b;
        boolean okA = eligible(a, avoid);
        boolean okB = eligible(b, avoid);
        for (int redraw = 0; redraw < REDRAWS && !(okA && okB); redraw++) {
            if (!okA) {
                a = random.nextInt(n);
                okA = a != b && eligible(a, avoid);
            }
            if (!okB) {
                b = random.nextInt(n);
                okB = b != a && eligible(b, avoid);
            }
        }
        if (okA && okB) {
            return nodes.node(better(b, a) ? b : a);
        }
        return pass(avoid);
    }

    private boolean eligible(int i, NodeView avoid) {
        NodeView node = nodes.node(i);
        return node.selectable() && !Avoid.matches(node, avoid);
    }

    /** Whether node {@code x} strictly beats node {@code y}: fewer in flight, or a higher weighted score. */
    boolean better(int x, int y) {
        long activeX = Math.max(0, nodes.node(x).activeConnections());
        long activeY = Math.max(0, nodes.node(y).activeConnections());
        if (!weighted) {
            return activeX < activeY;
        }
        if (bias == 1.0) { // weight / (active + 1), compared exactly by cross-multiplication
            return weights[x] * (activeY + 1) > weights[y] * (activeX + 1);
        }
        if (bias == 0.0) {
            return weights[x] > weights[y];
        }
        return weights[x] / Math.pow(activeX + 1, bias) > weights[y] / Math.pow(activeY + 1, bias);
    }

    /** The best eligible node over all, from a random start so equals do not favour the lowest index. */
    private NodeView pass(NodeView avoid) {
        int n = nodes.size();
        int start = n == 1 ? 0 : random.nextInt(n);
        int best = -1;
        NodeView avoided = null;
        for (int k = 0; k < n; k++) {
            int i = start + k < n ? start + k : start + k - n;
            NodeView node = nodes.node(i);
            if (!node.selectable()) {
                continue;
            }
            if (Avoid.matches(node, avoid)) {
                avoided = node;
            } else if (best < 0 || better(i, best)) {
                best = i;
            }
        }
        return best >= 0 ? nodes.node(best) : avoided;
    }
}
