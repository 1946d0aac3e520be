package io.loadwise.testsupport;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;

/**
 * Always the first usable node in configuration order: makes a policy switch observable. Register it in
 * the test's {@code META-INF/services} file to use it.
 */
public final class TestFirstUsablePolicy implements LoadBalancingPolicy {

    public static final String ID = "test-first-usable";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "test: the first usable node";
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return avoid -> {
            NodeView fallback = null;
            for (int i = 0; i < snapshot.size(); i++) {
                NodeView node = snapshot.node(i);
                if (node.selectable()) {
                    if (avoid == null || !node.name().equals(avoid.name())) {
                        return node;
                    }
                    fallback = node;
                }
            }
            return fallback;
        };
    }
}
