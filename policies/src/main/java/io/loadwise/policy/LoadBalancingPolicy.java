package io.loadwise.policy;

import java.util.List;
import java.util.Set;

/**
 * A task assignment policy: the factory half of the SPI.
 *
 * <p>Implementations are registered through {@link java.util.ServiceLoader} under this interface and
 * looked up by {@link #id()} (see {@link PolicyRegistry}). A factory is stateless and thread-safe; all
 * selection state lives in the {@link Picker}s it builds.
 *
 * <p>The dispatcher calls {@link #newPicker} off the pick path: when membership, weights, enabled or
 * health flags change, when the policy is switched, and, for policies whose {@link #inputs()} include
 * {@link PolicyInput#AGENT_METRICS}, after every batch of agent samples. The picker it returns is
 * published through a volatile field and used by many threads at once until it is replaced.
 */
public interface LoadBalancingPolicy {

    /** Stable identifier used in configuration, e.g. {@code "static-wrr"}. */
    String id();

    /** One line for {@code --help}, the console and the docs. */
    String description();

    /**
     * What this policy reads beyond each node's configuration, flags and connection counts: an immutable
     * set, the same on every call (the dispatcher asks per piggybacked load report). The dispatcher polls
     * node agents only for a policy that declares {@link PolicyInput#AGENT_METRICS}, and a TCP cluster
     * refuses a policy that declares any input. Ask this, not {@link #usesAgentMetrics()}.
     *
     * <p>The default declares nothing, except {@link PolicyInput#AGENT_METRICS} for a policy written
     * before this method existed that overrides {@link #usesAgentMetrics()} to return true.
     */
    default Set<PolicyInput> inputs() {
        return usesAgentMetrics() ? PolicyInput.LEGACY_AGENT_METRICS : Set.of();
    }

    /**
     * Whether this policy reads {@link NodeView#agentSample()}; superseded by {@link #inputs()}.
     *
     * @deprecated declare {@link PolicyInput#AGENT_METRICS} in {@link #inputs()} instead. Kept so that
     *     policies overriding it still compile and still get agent metrics (through the default of
     *     {@link #inputs()}); nothing asks it any more, and a policy that declares {@link #inputs()}
     *     leaves it false.
     */
    @Deprecated
    default boolean usesAgentMetrics() {
        return false;
    }

    /**
     * Checks policy-specific options ({@code policyOptions} in the cluster config). Returns one message
     * per problem, naming the option, or an empty list. Called before any picker is built.
     */
    default List<String> validate(PolicyOptions options) {
        return options.rejectUnknown(List.of());
    }

    /**
     * How often the dispatcher rebuilds this policy's picker when no event does, in milliseconds, given the
     * validated options: for a picker whose weights change with time alone (gRPC's {@code weight_update_period},
     * for a weight that leaves its blackout or expires while no sample arrives). The default, 0, rebuilds only
     * on events: membership, weights, flags, agent samples.
     */
    default long rebuildPeriodMillis(PolicyOptions options) {
        return 0;
    }

    /**
     * Builds a picker over an immutable snapshot of the cluster's nodes.
     *
     * @param snapshot the nodes, in configuration order; never empty
     * @param previous the picker this one replaces, or {@code null}; a policy may carry state (a
     *     round-robin cursor, for instance) forward from it when it is one of its own
     * @param env random source, clock and options
     */
    Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env);
}
