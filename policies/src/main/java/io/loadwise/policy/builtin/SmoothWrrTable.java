package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A precomputed smooth weighted round-robin cycle (nginx's smooth WRR, laid out ahead of time like
 * HAProxy's {@code lb_map}): one slot per unit of weight, ordered so that every node's turns are spread
 * evenly over the cycle. With weights 2:2:1 the cycle is A B C A B, so any 5 consecutive picks give
 * exactly 2, 2 and 1 and no node gets a burst.
 *
 * <p>Picking is one atomic increment of a shared cursor and an array read. A slot whose node is
 * unusable (or to be avoided) is consumed and the next cursor value is drawn, so the surviving nodes
 * keep their exact ratio among themselves.
 */
final class SmoothWrrTable {

    /** Cap on the cycle length; larger weight sums are scaled down proportionally (each weight stays >= 1). */
    static final int MAX_SLOTS = 1 << 16;

    private final NodeView[] slots;
    private final int maxDraws;
    private final AtomicInteger cursor;

    /**
     * @param weights per node index; 0 leaves the node out of the cycle
     * @param startCursor cursor carried forward from the table this one replaces (0 for a fresh one)
     */
    SmoothWrrTable(ClusterSnapshot snapshot, int[] weights, int startCursor) {
        int[] reduced = reduce(weights, MAX_SLOTS);
        long total = 0;
        int members = 0;
        for (int w : reduced) {
            total += w;
            members += w > 0 ? 1 : 0;
        }
        this.slots = new NodeView[(int) total];
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
        // Enough draws to meet every member at least once in a quiet cycle; past that the caller falls back.
        this.maxDraws = Math.min(slots.length, 2 * members);
        this.cursor = new AtomicInteger(startCursor);
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

    /**
     * The next usable node of the cycle other than {@code avoid}, or {@code null} when none turned up
     * within a bounded number of draws (the caller then falls back to a scan).
     */
    NodeView next(NodeView avoid) {
        int length = slots.length;
        for (int d = 0; d < maxDraws; d++) {
            // Masking the sign bit keeps the division 32-bit; the cycle jumps once per 2^31 picks.
            NodeView node = slots[(cursor.getAndIncrement() & Integer.MAX_VALUE) % length];
            if (node.selectable() && !Avoid.matches(node, avoid)) {
                return node;
            }
        }
        return null;
    }

    int cursor() {
        return cursor.get();
    }

    int length() {
        return slots.length;
    }
}
