package io.loadwise.dispatcher.testsupport;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.testsupport.TestFirstUsablePolicy;
import java.util.ArrayList;
import java.util.List;

/** Stands for the agent-driven policies: reads agent metrics and takes one option, {@code threshold}. */
public final class TestAgentPolicy implements LoadBalancingPolicy {

    public static final String ID = "test-agent";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "test: an agent-driven policy";
    }

    @Override
    public boolean usesAgentMetrics() {
        return true;
    }

    @Override
    public List<String> validate(PolicyOptions options) {
        List<String> errors = new ArrayList<>(options.rejectUnknown(List.of("threshold")));
        options.checkRange("threshold", 0, 100, errors);
        return errors;
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return new TestFirstUsablePolicy().newPicker(snapshot, previous, env);
    }
}
