package io.loadwise.dispatcher.cluster;

import java.util.Locale;

/**
 * What the dispatcher knows about a node's agent. No state takes a node out of selection: that is the
 * job of connect failures ({@link NodeState#connectDown()}). A node whose agent is not {@link #OK} is
 * "unknown" to the agent-driven policies, which apply their documented fallback (docs/policies.md),
 * whatever the reason ({@link #UNKNOWN} or {@link #UNAUTHORIZED}).
 */
public enum AgentState {
    /** A sample, polled or piggybacked on a response, arrived within the cluster's {@code agentExpiryMs}. */
    OK,
    /**
     * No fresh sample: the node runs no agent, the agent has not answered yet, answers an error status or
     * an unreadable document, cannot be reached, or its last sample expired.
     */
    UNKNOWN,
    /**
     * No fresh sample, and the agent answered the last poll with 401: it wants a shared secret the
     * dispatcher did not send, or a different one ({@code agent.secret}, {@code LOADWISE_AGENT_SECRET}).
     */
    UNAUTHORIZED;

    /** The lower-case name the API and the console show. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
