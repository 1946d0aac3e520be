package io.loadwise.dispatcher.monitor;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;

/** Test policy without agent metrics: the first usable node. */
public final class FirstUsableTestPolicy implements LoadBalancingPolicy {

    @Override
    public String id() {
        return "test-first-usable";
    }

    @Override
    public String description() {
        return "test only: first usable node";
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return avoid -> {
            for (int i = 0; i < snapshot.size(); i++) {
                if (snapshot.node(i).usable()) {
                    return snapshot.node(i);
                }
            }
            return null;
        };
    }
}
