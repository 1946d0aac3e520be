package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.config.RetryOn;
import io.netty.channel.Channel;

/**
 * The node and node connection of a client connection's running {@link Exchange}: counts the request on the
 * node from its head to its end, batches the writes to the node into one flush per read batch of the
 * client, and decides what becomes of the connection when the exchange ends: back to its pool, kept by the
 * client's {@link NodeBinding} ({@code balance: per-connection}), closed, or handed to a byte tunnel. On
 * the client connection's event loop.
 */
final class NodeConnection {

    /** {@code null}: balanced per request. */
    private final NodeBinding binding;
    private Channel channel;
    /** The node of the latest request sent; kept after the connection is let go, for messages. */
    private NodeState node;
    /** Something was written to the node since its last flush. */
    private boolean flushPending;

    NodeConnection(NodeBinding binding) {
        this.binding = binding;
    }

    /** {@code backend}, connected to {@code target} after {@code waitNanos}, now serves {@code exchange}. */
    BackendHandler attach(Channel backend, NodeState target, long waitNanos, Exchange exchange) {
        if (binding != null && !binding.holds(backend)) {
            binding.bind(target, backend); // a bound node counts one assignment for the whole binding
        }
        node = target;
        target.counters().backendConnectionObtained(waitNanos);
        target.counters().requestStarted();
        target.requestSent();
        if (binding == null) {
            target.assignmentStarted();
        }
        channel = backend;
        BackendHandler handler = BackendHandler.of(backend);
        handler.attach(exchange);
        return handler;
    }

    NodeState node() {
        return node;
    }

    /** The request sent to {@link #node} ended, answered or not; {@code processing}: its PT when answered. */
    void requestEnded(boolean answered, long latency, long processing) {
        if (answered) {
            node.counters().requestCompleted(latency, processing);
            node.requestEnded(processing);
        } else {
            node.counters().requestFailed();
            node.requestFailed();
            node.requestEnded(-1);
        }
        if (binding == null) {
            node.assignmentEnded();
        }
    }

    /**
     * Whether {@code retryOn} lets a request whose node connection {@code closed} before any response byte go to
     * another node: {@code refused-stream} for an HTTP/2 stream the node refused unprocessed, else {@code reset}.
     */
    static boolean retryable(Channel closed, RetryOn retryOn) {
        NodeStream stream = closed.pipeline().get(NodeStream.class);
        return stream != null && stream.refused() ? retryOn.refusedStream() : retryOn.reset();
    }

    /** The client is bound to its node connection ({@code balance: per-connection}): no request moves elsewhere. */
    boolean bound() {
        return binding != null;
    }

    boolean is(Channel candidate) {
        return candidate == channel && candidate != null;
    }

    boolean attached() {
        return channel != null;
    }

    /** Whether the node connection took everything written so far without queueing. */
    boolean writable() {
        return channel.isWritable();
    }

    /** Written now, flushed at the end of the client's read batch ({@link #flush}). */
    void write(Object msg) {
        channel.write(msg, channel.voidPromise());
        flushPending = true;
    }

    void flush() {
        if (flushPending && channel != null) {
            flushPending = false;
            channel.flush();
        }
    }

    /** Reads from the node only while the client takes what is relayed to it. */
    void readWhile(boolean clientWritable) {
        if (channel != null) {
            channel.config().setAutoRead(clientWritable);
        }
    }

    /**
     * The exchange completed: the connection serves the next request ({@code reusable}) or closes. A bound one
     * stays attached, so that bytes or a close on it while the client is idle still reach the exchange.
     */
    void recycle(boolean reusable) {
        Channel done = channel;
        channel = null;
        flushPending = false;
        if (binding != null) {
            if (!reusable) {
                binding.release(false, null);
                done.close();
            }
            return;
        }
        BackendHandler handler = BackendHandler.of(done);
        handler.detach();
        if (reusable) {
            handler.releaseAfterRead(done); // once the node's read batch shows nothing follows the response
        } else {
            done.close();
        }
    }

    /** The exchange failed on this connection (or leaves it for another node): it closes. */
    void discard() {
        Channel failed = detach();
        if (failed != null) {
            failed.close();
            if (binding != null && binding.holds(failed)) {
                binding.release(false, failed);
            }
        }
    }

    /** A 101 went out: the connection leaves HTTP (and any binding) for a byte tunnel; returns it. */
    Channel upgrade() {
        Channel upgraded = channel;
        channel = null;
        flushPending = false;
        if (binding != null && binding.holds(upgraded)) {
            binding.release(false, upgraded);
        }
        return upgraded;
    }

    /** A node connection closed that the running exchange does not use: a binding to it breaks. */
    void closedElsewhere(Channel closed) {
        if (binding != null && binding.holds(closed)) {
            binding.release(false, null);
        }
    }

    /** The client left: a bound connection goes back to its pool (unless the exchange holds it). */
    void clientClosed() {
        if (binding != null) {
            binding.release(true, channel);
        }
    }

    private Channel detach() {
        Channel held = channel;
        channel = null;
        flushPending = false;
        if (held != null) {
            BackendHandler.of(held).detach();
        }
        return held;
    }
}
