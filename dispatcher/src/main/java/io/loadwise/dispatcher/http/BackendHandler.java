package io.loadwise.dispatcher.http;

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
 */
final class BackendHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(BackendHandler.class);

    static final String NAME = "backend";

    private final NodePool pool;
    private Exchange owner;

    BackendHandler(NodePool pool) {
        this.pool = pool;
    }

    static BackendHandler of(Channel channel) {
        return (BackendHandler) channel.pipeline().get(NAME);
    }

    /** The pool this connection belongs to. */
    NodePool pool() {
        return pool;
    }

    void attach(Exchange exchange) {
        this.owner = exchange;
    }

    void detach() {
        this.owner = null;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Exchange exchange = owner;
        if (exchange != null) {
            exchange.onBackendMessage(ctx.channel(), msg);
        } else {
            ReferenceCountUtil.release(msg);
            ctx.close();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        Exchange exchange = owner;
        if (exchange != null) {
            exchange.flushClient();
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
