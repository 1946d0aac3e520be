package io.loadwise.dispatcher.tcp;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.logging.AccessLog;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.concurrent.Ticker;
import java.net.SocketAddress;

/**
 * Accounting of one client connection: a TCP tunnel is the task of an L4 cluster, so it counts as one
 * request whose latency is the connection's life and whose processing time (PT) is the life of the
 * backend connection. A client that never got a backend counts as a failed request. Runs on the client
 * channel's event loop; ends when the client channel closes.
 */
final class Tunnel implements ChannelFutureListener {

    private final VirtualCluster cluster;
    private final SocketAddress client;
    /** The client channel's event loop's clock. */
    private final Ticker ticker;
    private final long openedNanos;
    private NodeState node;
    private long connectedNanos;
    private long bytesIn;
    private long bytesOut;

    Tunnel(VirtualCluster cluster, SocketAddress client, Ticker ticker) {
        this.cluster = cluster;
        this.client = client;
        this.ticker = ticker;
        this.openedNanos = ticker.nanoTime();
        cluster.counters().connectionOpened();
        cluster.counters().requestStarted();
    }

    void backendConnected(NodeState chosen, long waitNanos) {
        this.node = chosen;
        this.connectedNanos = ticker.nanoTime();
        cluster.counters().backendConnectionObtained(waitNanos);
        chosen.counters().backendConnectionObtained(waitNanos);
        chosen.counters().connectionOpened();
        chosen.counters().requestStarted();
        chosen.assignmentStarted();
    }

    /** Bytes from the client, on their way to the node. */
    void countIn(int n) {
        bytesIn += n;
        cluster.counters().bytesIn(n);
        node.counters().bytesIn(n);
    }

    /** Bytes from the node, on their way to the client. */
    void countOut(int n) {
        bytesOut += n;
        cluster.counters().bytesOut(n);
        node.counters().bytesOut(n);
    }

    /** The client channel closed. */
    @Override
    public void operationComplete(ChannelFuture closed) {
        long now = ticker.nanoTime();
        long latency = now - openedNanos;
        cluster.counters().connectionClosed();
        if (node == null) {
            cluster.counters().requestFailed();
        } else {
            long processing = now - connectedNanos;
            cluster.counters().requestCompleted(latency, processing);
            node.counters().requestCompleted(latency, processing);
            node.counters().connectionClosed();
            node.assignmentEnded();
        }
        if (AccessLog.enabled()) {
            AccessLog.tcp(String.valueOf(client), cluster.name(),
                    node == null ? null : node.name(), bytesIn, bytesOut, latency / 1_000_000L);
        }
    }
}
