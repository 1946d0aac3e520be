package io.loadwise.dispatcher.tls;

import io.loadwise.dispatcher.net.ClientAddress;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SniCompletionEvent;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handshake failures (a client offering only TLS 1.0, no common cipher, a client certificate missing or
 * not trusted, a ClientHello that does not arrive within the handshake timeout or is longer than
 * {@link ServerNameSelector#MAX_CLIENT_HELLO_BYTES}) are logged here at debug, in one line, and the
 * connection closed; they never reach the HTTP handlers as stack traces. Whatever follows a failure on
 * the same connection (the close's aftermath) is dropped with it. A completed {@code acme-tls/1} handshake (a CA's
 * tls-alpn-01 check, RFC 8737 §3) is closed here too: it carries no HTTP.
 */
final class HandshakeEvents extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(HandshakeEvents.class);

    private final String listener;
    private boolean failed;

    HandshakeEvents(String listener) {
        this.listener = listener;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SniCompletionEvent hello && !hello.isSuccess()) {
            // no ClientHello within the handshake timeout, or one longer than the bound
            if (!failed) {
                failed = true;
                log.debug("{}: TLS ClientHello from {} refused: {}", listener, ClientAddress.of(ctx.channel()),
                        reason(hello.cause()));
            }
            ctx.close();
            return;
        }
        if (evt instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
            if (!failed) {
                failed = true;
                log.debug("{}: TLS handshake with {} failed: {}", listener, ClientAddress.of(ctx.channel()),
                        reason(done.cause()));
            }
            ctx.close();
            return;
        }
        if (evt instanceof SslHandshakeCompletionEvent && AlpnChallenges.ACME_TLS_1.equals(protocol(ctx))) {
            log.debug("{}: tls-alpn-01 check from {} answered", listener, ClientAddress.of(ctx.channel()));
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    private static String protocol(ChannelHandlerContext ctx) {
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        return tls == null ? null : tls.applicationProtocol();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable tls = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (tls instanceof SSLException || tls instanceof NotSslRecordException
                || tls instanceof TooLongFrameException || failed) {
            if (!failed) {
                failed = true;
                log.debug("{}: TLS error with {}: {}", listener, ClientAddress.of(ctx.channel()), reason(tls));
            }
            ctx.close();
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    private static String reason(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    }
}
