package io.loadwise.dispatcher.cluster;

/** Told, on the thread that saw it (often an event loop, so it must only hand over), of reachability changes. */
@FunctionalInterface
public interface ReachabilityListener {
    /**
     * @param reachable {@code false} when a connect failure took the node out, {@code true} when the
     *     first connect after failures succeeded
     */
    void reachabilityChanged(NodeState node, boolean reachable);
}
