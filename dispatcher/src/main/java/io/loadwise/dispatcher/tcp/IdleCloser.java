package io.loadwise.dispatcher.tcp;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * QoS-01: closes a client connection when the {@link io.netty.handler.timeout.IdleStateHandler} before
 * it reports no traffic either way; the tunnel's {@link Relay} then closes the backend side.
 */
@ChannelHandler.Sharable
final class IdleCloser extends ChannelInboundHandlerAdapter {

    static final IdleCloser INSTANCE = new IdleCloser();
    private static final Logger log = LoggerFactory.getLogger(IdleCloser.class);

    private IdleCloser() {
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            log.debug("{}: idle, closing", ctx.channel());
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }
}
