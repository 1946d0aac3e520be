package io.loadwise.console.testing;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;

/** Test policy: the last usable node, so a switch from {@link FirstUsablePolicy} visibly moves traffic. */
public final class LastUsablePolicy implements LoadBalancingPolicy {

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
                if (node.usable()) {
                    return node;
                }
            }
            return null;
        };
    }
}
