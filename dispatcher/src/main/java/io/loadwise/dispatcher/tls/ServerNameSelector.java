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

    ServerNameSelector(Supplier<ServerTls> contexts, long handshakeTimeoutMs) {
        super(hostname -> contexts.get().select(hostname), handshakeTimeoutMs);
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
