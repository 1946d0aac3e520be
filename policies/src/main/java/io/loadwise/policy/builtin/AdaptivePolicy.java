package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyOptions;
import java.util.List;
import java.util.Set;

/**
 * Adaptive: power of two choices (Mitzenmacher; Envoy's and NGINX's least-request) over the cost of
 * one more request on a node,
 * <pre>
 * cost = (active + 1 + failures) × slowness / (headroom × running × ramp × weight), ties broken by latency
 * </pre>
 * <ul>
 *   <li>{@code active}: the node's work in flight, live (requests in flight in per-request mode);</li>
 *   <li>{@code slowness}: {@code min(4, (perRequest / fastest)²)}, perRequest its response time per
 *       request in flight, measured while its workers are all busy and smoothed over 10 s
 *       ({@link AdaptiveCost#slowness(io.loadwise.policy.ClusterSnapshot, double[])}): the bottleneck
 *       the agent does not show, such as a small JDBC pool;</li>
 *   <li>{@code latency}: the node's peak-EWMA response time ({@link io.loadwise.policy.PeakEwma}), at
 *       least a quarter of the rival's; it decides only between equal costs ({@link AdaptiveCost#cheaper});</li>
 *   <li>{@code headroom}: {@code 1 - load/100} with jvm-aware's load (Equation 2, six agent metrics)
 *       smoothed over the node's samples (τ 1 s, {@link AdaptiveMemory#LOAD_TAU_NANOS}), at
 *       least a quarter of the best unsaturated node's; as the sample ages it fades to the cluster's
 *       average, so without fresh samples the policy is least requests;</li>
 *   <li>{@code running}: {@code 1 - JVM_GC_TIME%/100}, the share of its time the node's JVM is not collecting
 *       garbage, at least 0.1, 1 when not reported ({@link AdaptiveCost#running(io.loadwise.policy.AgentSample)});</li>
 *   <li>{@code ramp}: slow start for a node that joins or comes back;</li>
 *   <li>{@code weight}: the configured weight.</li>
 * </ul>
 * A node at its limit is passed over while its sample is fresh ({@link AdaptiveCost#excluded}): a
 * saturated one (load 100: queue or heap over its threshold, confirmed: {@link AdaptiveMemory#saturatedNow}; a
 * noisy heap needs two raw readings over it) at the work it had at the sample, a busy
 * one at its estimated slots. When every node is at its limit, the least full of them
 * ({@link AdaptiveCost#lessFull}); never null while a node is selectable.
 * In a cluster of up to {@link AdaptivePicker#FULL_SCAN_MAX} nodes every pick compares them all instead.
 * Why two random choices and not the argmin in larger ones: the argmin sends every request between two samples to the
 * same node (the herd jvm-aware-classic shows); two choices send a burst to many nodes and still avoid the
 * bad ones, at a cost independent of the cluster size.
 */
public final class AdaptivePolicy implements LoadBalancingPolicy {

    private static final Set<PolicyInput> INPUTS = Set.of(PolicyInput.AGENT_METRICS, PolicyInput.RESPONSE_TIMES);

    @Override
    public String id() {
        return "adaptive";
    }

    @Override
    public String description() {
        return "Adaptive: the cheaper of two random nodes by (in flight + 1 + 8 x failures in the last second)"
                + " x slowness / (agent headroom x share of time not in GC), slowness from response time per request in flight, peak-EWMA"
                + " response time breaking ties;"
                + " saturated nodes held at their sampled work, busy ones at their estimated"
                + " slots; slow start, least requests when samples age";
    }

    @Override
    public Set<PolicyInput> inputs() {
        return INPUTS;
    }

    @Override
    public List<String> validate(PolicyOptions options) {
        return AdaptiveSettings.validate(options);
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        AdaptiveSettings settings = AdaptiveSettings.from(env.options());
        AdaptiveMemory before = previous instanceof AdaptivePicker p ? p.memory : null;
        AdaptiveMemory memory = AdaptiveMemory.of(snapshot, before, env.nanoClock().getAsLong(),
                settings.slowStartNanos(), settings.load());
        return new AdaptivePicker(snapshot, new AdaptiveCost(snapshot, settings, memory), memory, env.random(),
                env.nanoClock());
    }
}
