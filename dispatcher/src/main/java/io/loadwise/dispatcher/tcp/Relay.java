package io.loadwise.dispatcher.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the bytes one channel receives to its peer, one direction of a tunnel. Both channels run on the
 * same event loop.
 *
 * <p>Backpressure: the channel has AUTO_READ off; it reads again only when everything it forwarded has
 * been written to the peer's socket, so a slow reader on the far side holds at most one read batch in
 * the proxy. Half-close: end of input here becomes {@code shutdownOutput} on the peer once its pending
 * writes are flushed; when both directions have ended, both channels close.
 */
final class Relay extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(Relay.class);

    private final Channel peer;
    private final IntConsumer byteCounter;
    private Channel self;
    private ChannelFuture lastWrite;
    private ChannelFutureListener readNext;
    /** Every byte before the peer's FIN has been read ({@link ChannelInputShutdownReadComplete}). */
    private boolean inputDrained;

    /** @param byteCounter told the size of every buffer forwarded */
    Relay(Channel peer, IntConsumer byteCounter) {
        this.peer = peer;
        this.byteCounter = byteCounter;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        self = ctx.channel();
        readNext = future -> {
            if (!future.isSuccess()) {
                log.debug("{}: write to {} failed: {}", self, peer, future.cause().toString());
                closeBoth();
            } else if (!inputDrained) {
                self.read();
            }
        };
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!peer.isActive()) {
            ReferenceCountUtil.release(msg);
            ctx.close();
            return;
        }
        if (msg instanceof ByteBuf buf) {
            byteCounter.accept(buf.readableBytes());
        }
        lastWrite = peer.write(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ChannelFuture written = lastWrite;
        lastWrite = null;
        if (written != null) {
            peer.flush();
            written.addListener(readNext);
        } else if (ctx.channel().isActive() && !inputDrained) {
            ctx.read();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        // The FIN is seen before the bytes ahead of it are read when nothing asked to read (Netty 4.2's
        // epoll, AUTO_READ off): read on until the transport says the input is drained, then end the peer's.
        if (evt == ChannelInputShutdownEvent.INSTANCE && !inputDrained) {
            ctx.read();
        } else if (evt == ChannelInputShutdownReadComplete.INSTANCE && !inputDrained) {
            inputDrained = true;
            propagateEndOfInput();
        }
        ctx.fireUserEventTriggered(evt);
    }

    private void propagateEndOfInput() {
        if (!peer.isActive()) {
            self.close();
            return;
        }
        // The empty write completes after every earlier write, so no forwarded byte is cut off.
        peer.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(flushed -> {
            if (!flushed.isSuccess() || !(peer instanceof DuplexChannel duplex)) {
                closeBoth();
                return;
            }
            duplex.shutdownOutput().addListener(shut -> {
                if (!shut.isSuccess() || duplex.isInputShutdown()) {
                    closeBoth();
                }
            });
        });
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (peer.isActive()) {
            peer.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("{}: {}", ctx.channel(), cause.toString());
        closeBoth();
    }

    private void closeBoth() {
        self.close();
        peer.close();
    }
}
