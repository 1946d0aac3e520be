package io.loadwise.dispatcher.acquire;

import io.loadwise.dispatcher.cluster.NodeState;

/**
 * A request's first choice of node, before admission: L7 puts session affinity and a per-connection
 * binding ahead of the policy, L4 asks the policy alone. Retries after a failure always ask the policy,
 * avoiding the node that failed.
 */
@FunctionalInterface
public interface NodeChooser {

    /** The node for a request to {@code target} ({@code null} for L4), or {@code null} when none is usable. */
    NodeState choose(String target);
}
