package io.loadwise.dispatcher.acquire;

import io.loadwise.dispatcher.cluster.NodeState;
import io.netty.channel.Channel;

/** How a {@link NodeAcquisition} ended: a connection to a node, or a refusal saying why there is none. */
public sealed interface Outcome permits Outcome.Connected, Outcome.Refused {

    /** A connection to {@code node}, obtained {@code waitNanos} after it was asked for (TD_WAIT). */
    record Connected(NodeState node, Channel channel, long waitNanos) implements Outcome {
    }

    /** No node: {@code reason} is a sentence for logs and error pages. */
    record Refused(Refusal refusal, String reason) implements Outcome {
    }

    /** Why no node was found. */
    enum Refusal {
        /** No node of the cluster serves the request's target (per-context routing). */
        NO_ROUTE,
        /** The cluster's queue is full. */
        QUEUE_FULL,
        /** Every usable node is at its {@code maxConnections}, and there is no queue. */
        NODES_FULL,
        /** No node is usable. */
        NO_NODE,
        /** Connects failed on every node tried. */
        UNREACHABLE;

        /** The cluster is full rather than broken: worth another try soon ({@code Retry-After}). */
        public boolean full() {
            return this == QUEUE_FULL || this == NODES_FULL;
        }
    }
}
