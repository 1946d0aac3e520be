package io.loadwise.dispatcher.acquire;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;

/**
 * A request's first choice of node, before admission: L7 puts session affinity and a per-connection
 * binding ahead of the policy, L4 asks the policy alone. Retries after a failure ask the policy, avoiding the
 * node that failed, unless the chooser knows better ({@link #chooseAgain}: a pinned request's replication domain).
 */
@FunctionalInterface
public interface NodeChooser {

    /** The node for a request to {@code target} ({@code null} for L4), or {@code null} when none is usable. */
    NodeState choose(String target);

    /**
     * The node for the request to {@code target} after {@code failed} failed it (a connect failure, or an answer
     * worth a retry): by default the policy's choice avoiding it.
     */
    default NodeState chooseAgain(VirtualCluster cluster, NodeState failed, String target) {
        return cluster.pick(failed, target);
    }
}
