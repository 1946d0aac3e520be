package io.loadwise.dispatcher.http2;

import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.util.AsciiString;
import java.util.Locale;

/**
 * {@code Upgrade: h2c} on a clear-text listener (RFC 7540 §3.2): looks at the first request of a
 * connection only, then leaves the pipeline. A bodyless upgrade request is answered 101 and served as
 * stream 1 of the new HTTP/2 connection (Netty's upgrade handler does the exchange of settings). One
 * with a body is served over HTTP/1.1 with the h2c offer removed: it must never reach a node, which
 * could accept it and turn the connection into an HTTP/2 tunnel past the proxy.
 */
final class H2cUpgrade extends ChannelInboundHandlerAdapter {

    private static final String H2C = "h2c";

    static final String UPGRADER = "h2c-upgrader";

    private final Http2Frontend http2;

    H2cUpgrade(Http2Frontend http2) {
        this.http2 = http2;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HttpRequest request)) {
            ctx.fireChannelRead(msg);
            return;
        }
        String upgrade = request.headers().get(HttpHeaderNames.UPGRADE);
        if (upgrade == null || !offersH2c(upgrade) || request.decoderResult().isFailure()) {
            ctx.pipeline().remove(this);
            ctx.fireChannelRead(msg);
            return;
        }
        boolean bodyless = request instanceof ProxiedRequest proxied && proxied.bodyless();
        if (!bodyless || !request.headers().contains(Http2CodecUtil.HTTP_UPGRADE_SETTINGS_HEADER)) {
            request.headers().remove(HttpHeaderNames.UPGRADE);
            ctx.pipeline().remove(this);
            ctx.fireChannelRead(msg);
            return;
        }
        request.headers().set(HttpHeaderNames.UPGRADE, H2C); // the only protocol the upgrade handler may pick
        HttpServerUpgradeHandler upgrader = new HttpServerUpgradeHandler(
                source -> http2.upgraded(source.channel()),
                protocol -> AsciiString.contentEqualsIgnoreCase(protocol, H2C)
                        ? new Http2ServerUpgradeCodec(http2.newCodec(), http2.afterCodec()) : null,
                0);
        ctx.pipeline().addAfter(ctx.name(), UPGRADER, upgrader);
        ctx.pipeline().remove(this);
        ctx.fireChannelRead(msg);
    }

    private static boolean offersH2c(String upgrade) {
        for (String token : upgrade.split(",")) {
            if (token.trim().toLowerCase(Locale.ROOT).equals(H2C)) {
                return true;
            }
        }
        return false;
    }
}
