package io.loadwise.policy.builtin;

import io.loadwise.policy.Picker;

/** orca-wrr's picker: a {@link WrrPicker} over an {@link EdfCycle} that carries its weight memory to the next build. */
final class OrcaWrrPicker extends WrrPicker {

    final OrcaWeightMemory memory;

    OrcaWrrPicker(EdfCycle cycle, Picker fallback, OrcaWeightMemory memory) {
        super(OrcaWrrPolicy.ID, cycle, fallback);
        this.memory = memory;
    }
}
