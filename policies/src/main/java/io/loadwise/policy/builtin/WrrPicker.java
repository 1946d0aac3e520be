package io.loadwise.policy.builtin;

import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;

/**
 * Picks from a {@link SlotCycle}; when the cycle yields no node (its members are all unusable or
 * avoided) it asks a fallback selector, which also returns {@code avoid} as the last resort.
 * Used by round-robin (all weights 1), static-wrr and f5-dynamic-ratio over a {@link SmoothWrrTable},
 * and by orca-wrr over an {@link EdfCycle} ({@link OrcaWrrPicker}).
 */
class WrrPicker implements Picker {

    private final String policyId;
    private final SlotCycle table;
    private final Picker fallback;

    WrrPicker(String policyId, SlotCycle table, Picker fallback) {
        this.policyId = policyId;
        this.table = table;
        this.fallback = fallback;
    }

    @Override
    public final NodeView pick(NodeView avoid) {
        NodeView node = table.next(avoid);
        return node != null ? node : fallback.pick(avoid);
    }

    /** The cursor to continue from when {@code previous} was built by the same policy, else 0. */
    static int carriedCursor(String policyId, Picker previous) {
        return previous instanceof WrrPicker p && p.policyId.equals(policyId) ? p.table.cursor() : 0;
    }

    final SlotCycle table() {
        return table;
    }
}
