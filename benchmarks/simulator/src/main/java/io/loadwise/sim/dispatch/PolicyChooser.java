package io.loadwise.sim.dispatch;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.sim.engine.SimulatedNode;
import io.loadwise.sim.engine.VirtualClock;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Chooses through a real {@link LoadBalancingPolicy}, as the dispatcher does: one picker built over a
 * snapshot of the nodes, rebuilt with {@code newPicker(snapshot, previous, env)} after every batch of
 * agent samples when the policy {@linkplain LoadBalancingPolicy#inputs() reads them}.
 */
public final class PolicyChooser implements NodeChooser {

    private final LoadBalancingPolicy policy;
    private final ClusterSnapshot snapshot;
    private final PolicyEnvironment env;
    private Picker picker;

    private PolicyChooser(LoadBalancingPolicy policy, ClusterSnapshot snapshot, PolicyEnvironment env) {
        this.policy = policy;
        this.snapshot = snapshot;
        this.env = env;
        this.picker = policy.newPicker(snapshot, null, env);
    }

    /** Validates the options now, so a bad option fails before any run starts. */
    public static ChooserFactory factory(LoadBalancingPolicy policy, PolicyOptions options) {
        List<String> errors = policy.validate(options);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException("policy " + policy.id() + ": " + String.join("; ", errors));
        }
        return new ChooserFactory() {
            @Override
            public String name() {
                return policy.id();
            }

            @Override
            public NodeChooser create(List<SimulatedNode> nodes, VirtualClock clock, SplittableRandom random) {
                PolicyEnvironment env = new PolicyEnvironment(random, clock::nanoTime, options);
                return new PolicyChooser(policy, new ClusterSnapshot("simulated", nodes), env);
            }
        };
    }

    @Override
    public int choose(int request, double demandSeconds) {
        NodeView chosen = picker.pick(null);
        // null: every node ruled out (jvm-aware saturation, say); the simulator counts a rejection
        return chosen == null ? -1 : chosen.index();
    }

    @Override
    public void onAgentSamples() {
        if (policy.inputs().contains(PolicyInput.AGENT_METRICS)) {
            picker = policy.newPicker(snapshot, picker, env);
        }
    }
}
