package io.loadwise.policy.builtin;

import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;

/**
 * Picks from an {@link EdfCycle}; when the cycle yields no node (its nodes are all unusable, full or
 * avoided) it asks a fallback selector, which also returns {@code avoid} as the last resort. Carries the
 * {@link OrcaWeightMemory} it was built with to the next build.
 */
final class OrcaWrrPicker implements Picker {

    private final EdfCycle cycle;
    private final Picker fallback;
    final OrcaWeightMemory memory;

    OrcaWrrPicker(EdfCycle cycle, Picker fallback, OrcaWeightMemory memory) {
        this.cycle = cycle;
        this.fallback = fallback;
        this.memory = memory;
    }

    @Override
    public NodeView pick(NodeView avoid) {
        NodeView node = cycle.next(avoid);
        return node != null ? node : fallback.pick(avoid);
    }

    EdfCycle cycle() {
        return cycle;
    }
}
