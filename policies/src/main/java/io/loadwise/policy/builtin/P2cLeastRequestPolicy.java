package io.loadwise.policy.builtin;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Envoy's default load balancer, {@code least_request}, as a peer baseline: two random nodes, the one with
 * fewer requests in flight wins (Mitzenmacher's power of two choices, Envoy's {@code choice_count} 2).
 * With unequal configured weights the two are compared as Envoy weighs hosts,
 * <pre>
 * score = weight / (active + 1)^activeRequestBias      (the higher score wins)
 * </pre>
 * so with the default bias 1 a node of weight 3 holding 2 requests (score 1) ties one of weight 1 holding
 * none. With equal weights the bias plays no part, as in Envoy: fewer in flight wins. {@code active} is
 * {@link io.loadwise.policy.NodeView#activeConnections()}: requests in flight in per-request mode, which is
 * what Envoy counts, and open tunnels or bound connections in the other modes. Needs no agent.
 */
public final class P2cLeastRequestPolicy implements LoadBalancingPolicy {

    static final String ID = "p2c-least-request";
    static final String BIAS = "activeRequestBias";
    /** Envoy's default {@code active_request_bias}. */
    static final double DEFAULT_BIAS = 1.0;
    /** Past this the weight no longer matters against one request more; Envoy sets no bound, a typo should. */
    static final double MAX_BIAS = 10;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "P2C least request (Envoy's default): the fewer in flight of two random nodes;"
                + " unequal weights compare weight / (active + 1)^activeRequestBias";
    }

    /** Nothing beyond configuration, flags and connection counts: usable in TCP clusters. */
    @Override
    public Set<PolicyInput> inputs() {
        return Set.of();
    }

    @Override
    public List<String> validate(PolicyOptions options) {
        List<String> errors = new ArrayList<>(options.rejectUnknown(List.of(BIAS)));
        options.checkRange(BIAS, 0, MAX_BIAS, errors);
        return errors;
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return new P2cLeastRequestPicker(snapshot, env.options().get(BIAS, DEFAULT_BIAS), env.random());
    }
}
