package io.loadwise.testsupport;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain round robin over usable nodes, so that tests do not depend on the built-in policies (developed
 * in their own module). Register it in the test's {@code META-INF/services} file to use it.
 */
public final class TestRoundRobinPolicy implements LoadBalancingPolicy {

    public static final String ID = "test-round-robin";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "test: usable nodes in turn";
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        AtomicInteger cursor = new AtomicInteger();
        return avoid -> {
            int n = snapshot.size();
            NodeView fallback = null;
            for (int tries = 0; tries < n; tries++) {
                NodeView node = snapshot.node(Math.floorMod(cursor.getAndIncrement(), n));
                if (!node.selectable()) {
                    continue;
                }
                if (avoid != null && node.name().equals(avoid.name())) {
                    fallback = node;
                    continue;
                }
                return node;
            }
            return fallback;
        };
    }
}
