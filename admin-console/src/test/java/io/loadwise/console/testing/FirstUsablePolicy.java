package io.loadwise.console.testing;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;

/** Test policy: the first usable node in configuration order. Ids are test-only so they never clash. */
public final class FirstUsablePolicy implements LoadBalancingPolicy {

    public static final String ID = "test-first-usable";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "Test policy: first usable node";
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return avoid -> {
            NodeView fallback = null;
            for (int i = 0; i < snapshot.size(); i++) {
                NodeView node = snapshot.node(i);
                if (node.usable()) {
                    if (node != avoid) {
                        return node;
                    }
                    fallback = node;
                }
            }
            return fallback;
        };
    }
}
