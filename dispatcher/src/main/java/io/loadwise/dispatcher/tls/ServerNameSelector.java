package io.loadwise.dispatcher.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SniHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * Reads the client's server name (SNI) and replaces itself with a TLS handler for the matching
 * certificate, taken from the listener's contexts as they are at that moment (a reload swaps them).
 * The server's cipher order wins over the client's.
 */
final class ServerNameSelector extends SniHandler {

    /**
     * The longest ClientHello accepted (its announced length; Netty's default is 16 MiB, buffered until the
     * handshake timeout). Real ones are a few hundred bytes to a few KiB (post-quantum key shares, many
     * PSKs); a longer one is refused as soon as its length is read.
     */
    static final int MAX_CLIENT_HELLO_BYTES = 64 * 1024;

    /** @param handshakeTimeoutMs for the ClientHello, and then for the whole handshake */
    ServerNameSelector(Supplier<ServerTls> contexts, long handshakeTimeoutMs) {
        super(hostname -> contexts.get().select(hostname), MAX_CLIENT_HELLO_BYTES, handshakeTimeoutMs);
    }

    @Override
    protected SslHandler newSslHandler(SslContext context, ByteBufAllocator allocator) {
        SslHandler handler = super.newSslHandler(context, allocator);
        SSLEngine engine = handler.engine();
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setUseCipherSuitesOrder(true);
        engine.setSSLParameters(parameters);
        return handler;
    }
}
