package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;

/**
 * Earliest-deadline-first scheduling (gRPC A58, Envoy's {@code EdfScheduler}) laid out ahead of time: each
 * node's k-th turn has the deadline k / weight, and the cycle lists every turn by deadline, ties to the
 * lower index (Envoy breaks them by insertion order, which is the index in the first round). Weights 3:1
 * give A A A B, then the cycle repeats: exactly what a live EDF heap yields, since weights only change at a
 * rebuild. A pick is then one atomic increment and an array read, where a live heap would need a lock.
 *
 * <p>Each cycle starts at a random slot, as Envoy's scheduler starts after a random number of picks: a
 * rebuild after every batch of reports would otherwise restart at the heaviest nodes' turns, and a fleet of
 * dispatchers would move in lockstep. Walked as a {@link SlotCycle}.
 */
final class EdfCycle extends SlotCycle {

    /** Cap on the cycle length; larger weight sums are scaled down (each weight stays at least 1). */
    static final int MAX_SLOTS = 1 << 14;

    /** @param weights per node index, at least 1 each */
    EdfCycle(ClusterSnapshot snapshot, int[] weights, int startSlot) {
        super(layout(snapshot, weights), startSlot);
    }

    private static NodeView[] layout(ClusterSnapshot snapshot, int[] weights) {
        int[] reduced = SmoothWrrTable.reduce(weights, MAX_SLOTS);
        int total = 0;
        for (int w : reduced) {
            total += w;
        }
        NodeView[] slots = new NodeView[total];
        int n = reduced.length;
        int[] turn = new int[n]; // the turn each node waits for: deadline (turn + 1) / weight
        int[] heap = new int[n];
        for (int i = 0; i < n; i++) {
            heap[i] = i;
        }
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(heap, n, i, turn, reduced);
        }
        for (int s = 0; s < total; s++) {
            int node = heap[0];
            slots[s] = snapshot.node(node);
            turn[node]++;
            siftDown(heap, n, 0, turn, reduced);
        }
        return slots;
    }

    /** Whether node a's next deadline comes before b's: (turn_a + 1) / w_a < (turn_b + 1) / w_b, exactly. */
    private static boolean earlier(int a, int b, int[] turn, int[] weights) {
        long left = (turn[a] + 1L) * weights[b];
        long right = (turn[b] + 1L) * weights[a];
        return left < right || left == right && a < b;
    }

    private static void siftDown(int[] heap, int size, int at, int[] turn, int[] weights) {
        while (true) {
            int least = at;
            int left = 2 * at + 1;
            if (left < size && earlier(heap[left], heap[least], turn, weights)) {
                least = left;
            }
            if (left + 1 < size && earlier(heap[left + 1], heap[least], turn, weights)) {
                least = left + 1;
            }
            if (least == at) {
                return;
            }
            int t = heap[at];
            heap[at] = heap[least];
            heap[least] = t;
            at = least;
        }
    }
}
