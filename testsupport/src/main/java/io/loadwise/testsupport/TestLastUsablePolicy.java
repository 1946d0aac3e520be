package io.loadwise.testsupport;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;

/**
 * Test policy: the last usable node, so a switch from {@link TestFirstUsablePolicy} visibly moves traffic.
 * It ignores {@code avoid}. Register it in the test's {@code META-INF/services} file to use it.
 */
public final class TestLastUsablePolicy implements LoadBalancingPolicy {

    public static final String ID = "test-last-usable";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "Test policy: last usable node";
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return avoid -> {
            for (int i = snapshot.size() - 1; i >= 0; i--) {
                NodeView node = snapshot.node(i);
                if (node.selectable()) {
                    return node;
                }
            }
            return null;
        };
    }
}
