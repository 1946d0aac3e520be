package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyOptions;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Seed 003's proposal (Burgess and Undheim, and seed 000's conclusion): round robin at low and medium
 * traffic intensity, where it did best, and least connections above a threshold, where it held out
 * longest. The intensity ρ and the switch with its hysteresis are {@link TrafficIntensity}'s. Round
 * robin is the smooth weighted cycle over the configured weights and least connections is weighted
 * (fewest (active + 1) / weight): with all weights 1, exactly the seed's RR and LC.
 *
 * <p>Defaults: switch up at ρ = 0.8, the operating level the seed recommends ("80 % of maximum") and
 * below the knee where its two-server measurements began to fail (0.87-0.88); switch down below 0.7, a
 * gap wider than the noise of a one-second count at a hundred requests per second (±10 %).
 */
public final class RoundRobinToLeastConnectionsPolicy implements LoadBalancingPolicy {

    static final String ID = "rr-to-lc";
    static final double DEFAULT_SWITCH_UP = 0.8;
    static final double DEFAULT_SWITCH_DOWN = 0.7;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "Round robin to least connections (seed 003): round robin below traffic intensity 0.8, weighted"
                + " least connections from it, back below 0.7";
    }

    /** Nothing beyond configuration, flags and connection counts: usable in TCP clusters. */
    @Override
    public Set<PolicyInput> inputs() {
        return Set.of();
    }

    @Override
    public List<String> validate(PolicyOptions options) {
        List<String> errors = options.rejectUnknown(List.of("nodeCapacity", "switchUp", "switchDown"));
        options.checkRange("nodeCapacity", 0, 1e9, errors);
        options.checkRange("switchUp", 0.01, 10, errors);
        options.checkRange("switchDown", 0, 10, errors);
        double up = options.get("switchUp", DEFAULT_SWITCH_UP);
        double down = options.get("switchDown", DEFAULT_SWITCH_DOWN);
        if (errors.isEmpty() && down >= up) {
            errors.add("policyOptions.switchDown: " + down + " must be below switchUp (" + up + ")");
        }
        return errors;
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        double capacity = env.options().get("nodeCapacity", 0);
        double up = env.options().get("switchUp", DEFAULT_SWITCH_UP);
        double down = env.options().get("switchDown", DEFAULT_SWITCH_DOWN);
        TrafficIntensity intensity = previous instanceof SwitchPicker p && p.intensity.sameSettings(capacity, up, down)
                ? p.intensity : new TrafficIntensity(capacity, up, down);
        int[] weights = new int[snapshot.size()];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = Math.max(1, snapshot.node(i).weight());
        }
        ArgminPicker leastConnections = new ArgminPicker(snapshot, WeightedLeastConnectionsPolicy.Load.INSTANCE);
        WrrPicker roundRobin = new WrrPicker(ID,
                new SmoothWrrTable(snapshot, weights, previous instanceof SwitchPicker p ? p.roundRobin.table().cursor() : 0),
                leastConnections);
        return new SwitchPicker(snapshot, intensity, roundRobin, leastConnections, env.nanoClock());
    }

    /** Asks the intensity estimate which of the two pickers places this pick. */
    static final class SwitchPicker implements Picker {

        final TrafficIntensity intensity;
        final WrrPicker roundRobin;
        private final ClusterSnapshot nodes;
        private final Picker leastConnections;
        private final LongSupplier clock;

        SwitchPicker(ClusterSnapshot nodes, TrafficIntensity intensity, WrrPicker roundRobin, Picker leastConnections,
                LongSupplier clock) {
            this.nodes = nodes;
            this.intensity = intensity;
            this.roundRobin = roundRobin;
            this.leastConnections = leastConnections;
            this.clock = clock;
        }

        @Override
        public NodeView pick(NodeView avoid) {
            return intensity.onPick(nodes, clock.getAsLong()) ? leastConnections.pick(avoid) : roundRobin.pick(avoid);
        }
    }
}
