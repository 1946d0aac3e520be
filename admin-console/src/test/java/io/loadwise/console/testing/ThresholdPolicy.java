package io.loadwise.console.testing;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.testsupport.TestFirstUsablePolicy;
import java.util.List;

/** Test policy with one option, {@code threshold} in 0..100, to exercise validation. */
public final class ThresholdPolicy implements LoadBalancingPolicy {

    public static final String ID = "test-threshold";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "Test policy: takes a threshold option";
    }

    @Override
    public List<String> validate(PolicyOptions options) {
        List<String> errors = new java.util.ArrayList<>(options.rejectUnknown(List.of("threshold")));
        options.checkRange("threshold", 0, 100, errors);
        return errors;
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return new TestFirstUsablePolicy().newPicker(snapshot, previous, env);
    }
}
