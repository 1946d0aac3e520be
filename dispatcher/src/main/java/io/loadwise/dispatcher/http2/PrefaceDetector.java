package io.loadwise.dispatcher.http2;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;

/**
 * Decides, once per connection, whether it speaks HTTP/2: ALPN {@code h2} at the end of the TLS
 * handshake, or the client connection preface ({@code PRI * HTTP/2.0...}) as its first bytes. Either
 * way the connection switches to HTTP/2; otherwise this handler leaves the pipeline at the first
 * bytes, and costs the HTTP/1.1 path nothing after that.
 */
final class PrefaceDetector extends ChannelInboundHandlerAdapter {

    private static final ByteBuf PREFACE = Http2CodecUtil.connectionPrefaceBuf();

    private final Http2Frontend http2;
    /** Every connection is HTTP/2: its first bytes go to the codec, whatever they are. */
    private final boolean always;
    private ByteBuf received;

    PrefaceDetector(Http2Frontend http2, boolean always) {
        this.http2 = http2;
        this.always = always;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done && done.isSuccess()) {
            SslHandler ssl = ctx.pipeline().get(SslHandler.class);
            if (ssl != null && ApplicationProtocolNames.HTTP_2.equals(ssl.applicationProtocol())) {
                ctx.fireUserEventTriggered(evt);
                switchTo(ctx, true);
                return;
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf bytes)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (received == null) {
            received = bytes;
        } else {
            received = ctx.alloc().compositeBuffer().addComponents(true, received, bytes);
        }
        if (always) {
            switchTo(ctx, true); // the codec checks the preface, and closes the connection without it
            return;
        }
        int length = Math.min(received.readableBytes(), PREFACE.readableBytes());
        boolean prefix = ByteBufUtil.equals(received, received.readerIndex(), PREFACE, 0, length);
        if (prefix && length < PREFACE.readableBytes()) {
            return; // too little to tell yet: wait for more
        }
        switchTo(ctx, prefix);
    }

    private void switchTo(ChannelHandlerContext ctx, boolean h2) {
        ByteBuf bytes = received;
        received = null; // handed on below, not released when this handler leaves
        if (h2) {
            http2.switchToHttp2(ctx.channel());
        }
        ctx.pipeline().remove(this);
        if (bytes != null) {
            ctx.fireChannelRead(bytes);
            ctx.fireChannelReadComplete();
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (received != null) {
            received.release();
            received = null;
        }
    }
}
