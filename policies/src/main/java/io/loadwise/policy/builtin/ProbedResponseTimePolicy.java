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
import java.util.random.RandomGenerator;

/**
 * Seed 000's "Response Time" (RT) policy, as the Nortel/Alteon switch of its experiments ran it: every
 * probe interval (5 s there) the dispatcher measures each server's response time, keeps a moving
 * average, and sets the servers' weights inversely proportional to it ("a server with half the response
 * time as another server will receive a weight twice as large", Alteon's application guide). Requests
 * are then drawn at random by weight until the next probe ({@link ResponseProbe}).
 *
 * <p>The seed's switch probed with a TCP connect and close; a Loadwise policy has no sockets, so the
 * probe reads what the dispatcher measures passively, the mean response time of the last second
 * ({@link NodeView#recentResponseTimeMillis()}), which seed 000 lists as the other way of timing a server.
 * What the seed found holds either way: a measurement taken every few seconds lags a server that starts
 * to thrash, which is why RT did no better than round robin there. Compare fastest-response-time, which
 * reads the measurement at every pick.
 */
public final class ProbedResponseTimePolicy implements LoadBalancingPolicy {

    static final String ID = "probed-response-time";
    /** Seed 000's probe interval; a 1 s interval measurably hurt there (more connections per server). */
    static final double DEFAULT_PROBE_INTERVAL_MS = 5_000;
    /** Draws of an unusable or avoided node before falling back to least connections. */
    static final int REDRAWS = 4;

    private static final Set<PolicyInput> INPUTS = Set.of(PolicyInput.RESPONSE_TIMES);

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "Probed response time (seed 000's RT): weights inversely proportional to a moving average of"
                + " response time, probed every 5 s, random by weight in between";
    }

    @Override
    public Set<PolicyInput> inputs() {
        return INPUTS;
    }

    @Override
    public List<String> validate(PolicyOptions options) {
        List<String> errors = options.rejectUnknown(List.of("probeIntervalMs"));
        options.checkRange("probeIntervalMs", 100, 600_000, errors);
        return errors;
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        long interval = Math.round(env.options().get("probeIntervalMs", DEFAULT_PROBE_INTERVAL_MS) * 1e6);
        ResponseProbe before = previous instanceof ProbePicker p ? p.probe : null;
        ResponseProbe probe = new ResponseProbe(snapshot, interval, before, env.nanoClock().getAsLong());
        return new ProbePicker(snapshot, probe, env.random(), env.nanoClock(),
                new ArgminPicker(snapshot, ActiveConnectionsLoad.INSTANCE));
    }

    /** Weighted random over the probe's cumulative weights; least connections when draws keep failing. */
    static final class ProbePicker implements Picker {

        final ResponseProbe probe;
        private final ClusterSnapshot nodes;
        private final RandomGenerator random;
        private final LongSupplier clock;
        private final Picker fallback;

        ProbePicker(ClusterSnapshot nodes, ResponseProbe probe, RandomGenerator random, LongSupplier clock,
                Picker fallback) {
            this.nodes = nodes;
            this.probe = probe;
            this.random = random;
            this.clock = clock;
            this.fallback = fallback;
        }

        @Override
        public NodeView pick(NodeView avoid) {
            double[] cumulative = probe.weights(clock.getAsLong());
            int n = cumulative.length;
            for (int draw = 0; draw < REDRAWS; draw++) {
                double target = random.nextDouble() * cumulative[n - 1];
                int low = 0;
                int high = n - 1;
                while (low < high) { // the first slot whose cumulative weight exceeds the target
                    int mid = (low + high) >>> 1;
                    if (cumulative[mid] > target) {
                        high = mid;
                    } else {
                        low = mid + 1;
                    }
                }
                NodeView node = nodes.node(low);
                if (node.selectable() && !Avoid.matches(node, avoid)) {
                    return node;
                }
            }
            return fallback.pick(avoid);
        }
    }
}
