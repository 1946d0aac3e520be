package io.loadwise.dispatcher.control;

import io.loadwise.policy.AgentSample;

/**
 * What the dispatcher knows about a node's agent. A node whose agent is not {@link #ok()} stays in
 * selection; the agent-driven policies treat it as unknown (docs/policies.md).
 *
 * @param ok a sample younger than the cluster's {@code agentExpiryMs} is at hand
 * @param state {@code ok}, {@code unknown}, or {@code unauthorized} (the agent refused the last poll with
 *     401: the dispatcher sent no secret or the wrong one), as the API shows it; only {@code ok} gives
 *     the policies metrics, and no state takes the node out of selection
 * @param problem why the agent is not ok, for operators (e.g. "agent answered HTTP 404"); {@code null}
 *     when it is
 * @param latestSample the last good sample whatever its age, or {@code null} before the first
 * @param sampleAgeMillis age of {@code latestSample}, -1 when there is none
 * @param polling the node monitor's figures, or {@code null} when the node is not monitored (TCP)
 */
public record AgentStatus(boolean ok, String state, String problem, AgentSample latestSample, long sampleAgeMillis,
        AgentPolling polling) {

    /** The sample the policies see: the latest one while it is fresh, otherwise {@code null}. */
    public AgentSample freshSample() {
        return ok ? latestSample : null;
    }
}
