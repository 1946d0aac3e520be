package io.loadwise.dispatcher.http;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.AsciiString;

/**
 * The {@code Alt-Svc} stage of a listener that also serves HTTP/3 (RFC 7838, RFC 9114 §3.1.1): every final response
 * head written to an HTTP/1.1 connection, an h2 or an h3 stream, a node's or the proxy's own, says
 * {@code Alt-Svc: h3=":<port>"; ma=<seconds>}, so that clients move to QUIC on the same port. A node's own
 * {@code Alt-Svc} is replaced: it names the node's services, which the client does not reach. Stateless: one per
 * listener, shared by its pipelines.
 */
@ChannelHandler.Sharable
public final class AltSvc extends ChannelOutboundHandlerAdapter {

    public static final String NAME = "alt-svc";
    public static final AsciiString HEADER = AsciiString.cached("alt-svc");

    private final AsciiString value;

    public AltSvc(int port, int maxAgeSeconds) {
        this.value = AsciiString.cached(value(port, maxAgeSeconds));
    }

    /** The header's value: {@code h3=":8443"; ma=86400}. */
    public static String value(int port, int maxAgeSeconds) {
        return "h3=\":" + port + "\"; ma=" + maxAgeSeconds;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse response && response.status().code() >= 200) {
            response.headers().set(HEADER, value);
        }
        ctx.write(msg, promise);
    }
}
