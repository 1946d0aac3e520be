package io.loadwise.dispatcher.tls;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SniHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * Reads the client's server name (SNI) and replaces itself with a TLS handler for the matching
 * certificate, taken from the listener's contexts as they are at that moment (a reload swaps them).
 * The server's cipher order wins over the client's. A CA's tls-alpn-01 handshake (SNI a name with a challenge
 * pending, ALPN {@code acme-tls/1} alone) gets that challenge's certificate instead ({@link AlpnChallenges}).
 */
final class ServerNameSelector extends SniHandler {

    /**
     * The longest ClientHello accepted (its announced length; Netty's default is 16 MiB, buffered until the
     * handshake timeout). Real ones are a few hundred bytes to a few KiB (post-quantum key shares, many
     * PSKs); a longer one is refused as soon as its length is read.
     */
    static final int MAX_CLIENT_HELLO_BYTES = 64 * 1024;

    /** The OCSP response to staple for a context, or null; null when the listener staples none. */
    private final Function<SslContext, byte[]> staples;
    /** This connection's ClientHello offers {@code acme-tls/1} alone, while a challenge is pending. */
    private boolean acmeValidation;

    /**
     * @param staples the OCSP response to staple to a handshake served from a context, or null for none; null
     *     when the listener staples nothing
     * @param handshakeTimeoutMs for the ClientHello, and then for the whole handshake
     */
    ServerNameSelector(Supplier<ServerTls> contexts, Function<SslContext, byte[]> staples, long handshakeTimeoutMs) {
        super(hostname -> contexts.get().select(hostname), MAX_CLIENT_HELLO_BYTES, handshakeTimeoutMs);
        this.staples = staples;
    }

    @Override
    protected Future<SslContext> lookup(ChannelHandlerContext ctx, ByteBuf clientHello) throws Exception {
        acmeValidation = AlpnChallenges.anyPending()
                && ClientHelloAlpn.offersOnly(clientHello, AlpnChallenges.ACME_TLS_1);
        return super.lookup(ctx, clientHello);
    }

    @Override
    protected Future<SslContext> lookup(ChannelHandlerContext ctx, String hostname) throws Exception {
        SslContext challenge = acmeValidation ? AlpnChallenges.answer(hostname) : null;
        return challenge != null ? ctx.executor().newSucceededFuture(challenge) : super.lookup(ctx, hostname);
    }

    @Override
    protected SslHandler newSslHandler(SslContext context, ByteBufAllocator allocator) {
        SslHandler handler = super.newSslHandler(context, allocator);
        SSLEngine engine = handler.engine();
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setUseCipherSuitesOrder(true);
        engine.setSSLParameters(parameters);
        byte[] staple = staples == null ? null : staples.apply(context);
        if (staple != null && engine instanceof ReferenceCountedOpenSslEngine openSsl) {
            openSsl.setOcspResponse(staple); // sent only to a client that asks (status_request)
        }
        return handler;
    }
}
