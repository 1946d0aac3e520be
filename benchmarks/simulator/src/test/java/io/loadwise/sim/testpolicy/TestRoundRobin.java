package io.loadwise.sim.testpolicy;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;

/** Test-scope stand-in registered through META-INF/services, independent of the built-in policies. */
public final class TestRoundRobin implements LoadBalancingPolicy {

    @Override
    public String id() {
        return "test-round-robin";
    }

    @Override
    public String description() {
        return "test stand-in: each node in turn";
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        int[] next = {0};
        return avoid -> snapshot.node(next[0]++ % snapshot.size());
    }
}
