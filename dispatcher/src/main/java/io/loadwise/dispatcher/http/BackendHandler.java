package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.http.codec.NodeCodec;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last handler of a backend connection: passes the node's response to the exchange that owns the
 * connection. A pooled idle connection has no owner; anything it receives is unsolicited, so it is
 * released and the connection closed.
 *
 * <p>A connection whose response completed goes back to its pool only at the end of the read batch that
 * completed it, and only if the codec holds no further bytes: a node that sent more than its response
 * (a second response, garbage) would otherwise hand those bytes to the next request on the connection.
 */
final class BackendHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(BackendHandler.class);

    static final String NAME = "backend";

    private final NodeConnections pool;
    private final NodeCodec codec;
    private Exchange owner;
    private long releasedNanos;
    private boolean releaseAfterRead;

    /** @param codec {@code null} on an HTTP/2 stream: one response per stream, nothing can be left over */
    BackendHandler(NodeConnections pool, NodeCodec codec) {
        this.pool = pool;
        this.codec = codec;
    }

    /** The handler of a backend connection: always the pipeline's last, found without a search. */
    static BackendHandler of(Channel channel) {
        return (BackendHandler) channel.pipeline().last();
    }

    /** The pool this connection belongs to. */
    NodeConnections pool() {
        return pool;
    }

    /** The next response answers a HEAD request (or not); an HTTP/2 stream's codec knows by itself. */
    void expectResponseTo(boolean head) {
        if (codec != null) {
            codec.expectResponseTo(head);
        }
    }

    /**
     * The exchange completed: back to the pool once this read batch ends clean; a stream at once (it carried
     * its one response; its pool closes it if it is still open).
     */
    void releaseAfterRead(Channel channel) {
        if (codec == null) {
            pool.release(channel);
        } else {
            releaseAfterRead = true;
        }
    }

    void attach(Exchange exchange) {
        this.owner = exchange;
    }

    void detach() {
        this.owner = null;
    }

    /** Went idle into its pool at {@code nanos}. */
    void released(long nanos) {
        releasedNanos = nanos;
    }

    long releasedNanos() {
        return releasedNanos;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Exchange exchange = owner;
        if (exchange != null) {
            exchange.onBackendMessage(ctx.channel(), msg);
        } else {
            ReferenceCountUtil.release(msg);
            if (releaseAfterRead) {
                log.debug("node connection {}: bytes after a complete response; closed", ctx.channel());
                releaseAfterRead = false;
            }
            ctx.close();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        Exchange exchange = owner;
        if (exchange != null) {
            exchange.flushClient();
        }
        if (releaseAfterRead) {
            releaseAfterRead = false;
            if (codec != null && codec.hasLeftoverBytes()) {
                log.debug("node connection {}: bytes after a complete response; closed", ctx.channel());
                ctx.close();
            } else {
                pool.release(ctx.channel());
            }
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        Exchange exchange = owner;
        if (exchange != null) {
            exchange.onBackendWritabilityChanged(ctx.channel().isWritable());
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        Exchange exchange = owner;
        owner = null;
        if (exchange != null) {
            exchange.onBackendClosed(ctx.channel());
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("backend connection {}: {}", ctx.channel(), cause.toString());
        ctx.close();
    }
}
