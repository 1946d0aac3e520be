package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;

/**
 * A precomputed smooth weighted round-robin cycle (nginx's smooth WRR, laid out ahead of time like
 * HAProxy's {@code lb_map}): one slot per unit of weight, ordered so that every node's turns are spread
 * evenly over the cycle. With weights 2:2:1 the cycle is A B C A B, so any 5 consecutive picks give
 * exactly 2, 2 and 1 and no node gets a burst. Walked as a {@link SlotCycle}.
 */
final class SmoothWrrTable extends SlotCycle {

    /** Cap on the cycle length; larger weight sums are scaled down proportionally (each weight stays >= 1). */
    static final int MAX_SLOTS = 1 << 16;

    /**
     * @param weights per node index; 0 leaves the node out of the cycle
     * @param startCursor cursor carried forward from the table this one replaces (0 for a fresh one)
     */
    SmoothWrrTable(ClusterSnapshot snapshot, int[] weights, int startCursor) {
        super(layout(snapshot, weights), startCursor);
    }

    private static NodeView[] layout(ClusterSnapshot snapshot, int[] weights) {
        int[] reduced = reduce(weights, MAX_SLOTS);
        long total = 0;
        for (int w : reduced) {
            total += w;
        }
        NodeView[] slots = new NodeView[(int) total];
        long[] current = new long[reduced.length];
        for (int s = 0; s < slots.length; s++) {
            int chosen = -1;
            for (int i = 0; i < reduced.length; i++) {
                if (reduced[i] == 0) {
                    continue;
                }
                current[i] += reduced[i];
                if (chosen < 0 || current[i] > current[chosen]) {
                    chosen = i;
                }
            }
            current[chosen] -= total;
            slots[s] = snapshot.node(chosen);
        }
        return slots;
    }

    /**
     * Divides by the common divisor and caps the total at {@code maxSlots}, scaling down proportionally
     * (each weight above 0 stays at least 1). Shared with {@link EdfCycle}.
     */
    static int[] reduce(int[] weights, int maxSlots) {
        int gcd = 0;
        long total = 0;
        for (int w : weights) {
            if (w < 0) {
                throw new IllegalArgumentException("negative weight " + w);
            }
            gcd = gcd(gcd, w);
            total += w;
        }
        int[] reduced = new int[weights.length];
        if (gcd == 0) {
            return reduced;
        }
        total /= gcd;
        for (int i = 0; i < weights.length; i++) {
            int w = weights[i] / gcd;
            reduced[i] = total <= maxSlots || w == 0 ? w : (int) Math.max(1, w * (long) maxSlots / total);
        }
        return reduced;
    }

    private static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
