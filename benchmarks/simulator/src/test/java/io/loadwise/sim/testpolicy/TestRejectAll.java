package io.loadwise.sim.testpolicy;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;

/** Test-scope policy whose picker never finds a node, as jvm-aware does when every node is saturated. */
public final class TestRejectAll implements LoadBalancingPolicy {

    @Override
    public String id() {
        return "test-reject-all";
    }

    @Override
    public String description() {
        return "test stand-in: no node is ever usable";
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return avoid -> null;
    }
}
