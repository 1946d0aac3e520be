package io.loadwise.dispatcher.tls;

import io.loadwise.dispatcher.net.ClientAddress;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks at the first byte a client sends to a TLS port. A TLS handshake record passes on (and this
 * handler leaves the pipeline). Clear-text HTTP gets a short plain 400 saying to use https, the way
 * NGINX does, and the connection is closed; anything else is just closed. Both are logged at debug:
 * a scanner or a mistyped URL is not an event for the operator.
 */
final class PlainTextRefusal extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(PlainTextRefusal.class);
    /** The content type of a TLS handshake record (RFC 8446 §5.1). */
    private static final int HANDSHAKE = 22;
    private static final byte[] PLAIN_HTTP_REFUSED = ("HTTP/1.1 400 Bad Request\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Connection: close\r\n"
            + "Content-Length: 48\r\n\r\n"
            + "This port speaks HTTPS: use an https:// URL.\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

    private final String listener;

    PlainTextRefusal(String listener) {
        this.listener = listener;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf bytes) || !bytes.isReadable()) {
            ctx.fireChannelRead(msg);
            return;
        }
        int first = bytes.getUnsignedByte(bytes.readerIndex());
        if (first == HANDSHAKE) {
            ctx.pipeline().remove(this);
            ctx.fireChannelRead(msg);
            return;
        }
        ReferenceCountUtil.release(msg);
        ctx.channel().config().setAutoRead(false);
        if (first >= 'A' && first <= 'Z') {
            log.debug("{}: client {} spoke clear-text HTTP to the TLS port; refused", listener,
                    ClientAddress.of(ctx.channel()));
            ctx.writeAndFlush(Unpooled.wrappedBuffer(PLAIN_HTTP_REFUSED)).addListener(ChannelFutureListener.CLOSE);
        } else {
            log.debug("{}: client {} sent no TLS handshake (first byte {}); closed", listener,
                    ClientAddress.of(ctx.channel()), first);
            ctx.close();
        }
    }
}
