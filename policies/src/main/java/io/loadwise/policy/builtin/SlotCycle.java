package io.loadwise.policy.builtin;

import io.loadwise.policy.NodeView;
import java.util.BitSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A cycle of node slots laid out at build time and walked by a shared cursor: the pick half of
 * {@link SmoothWrrTable} and {@link EdfCycle}, which differ only in how they order the slots. Picking is
 * one atomic increment and an array read. A slot whose node cannot be picked (or is to be avoided) is
 * consumed and the next cursor value drawn, so the surviving nodes keep their exact ratio among themselves.
 */
abstract class SlotCycle {

    private final NodeView[] slots;
    private final int maxDraws;
    private final AtomicInteger cursor;

    /** @param startCursor where the cursor starts (carried from a previous cycle, or a random slot) */
    SlotCycle(NodeView[] slots, int startCursor) {
        this.slots = slots;
        BitSet members = new BitSet();
        for (NodeView node : slots) {
            members.set(node.index());
        }
        // Enough draws to meet every member at least once in a quiet cycle; past that the caller falls back.
        this.maxDraws = Math.min(slots.length, 2 * members.cardinality());
        this.cursor = new AtomicInteger(startCursor);
    }

    /**
     * The next node of the cycle that can be picked and is not {@code avoid}, or {@code null} when none
     * turned up within a bounded number of draws (the caller then falls back to a scan).
     */
    final NodeView next(NodeView avoid) {
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

    final int cursor() {
        return cursor.get();
    }

    final int length() {
        return slots.length;
    }
}
