package io.loadwise.dispatcher.tls;

import io.loadwise.dispatcher.config.NodeTlsConfig;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPromise;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import java.net.InetSocketAddress;
import java.util.function.Function;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS from the dispatcher to a cluster's nodes ({@code nodeTls}). A node connection counts as connected
 * only once its handshake is done, so a pooled connection is always ready: a request that finds one idle
 * never waits for a handshake, and a node whose certificate is refused counts as unreachable.
 */
public final class NodeTls {

    private static final Logger log = LoggerFactory.getLogger(NodeTls.class);

    private final SslContext context;

    private NodeTls(SslContext context) {
        this.context = context;
    }

    /** @param cluster the cluster's name, for the log */
    public static NodeTls of(String cluster, NodeTlsConfig config) throws TlsFileException {
        return of(cluster, config, false);
    }

    /** @param h2 offer only {@code h2} in ALPN ({@code nodeProtocol: h2}); the pool checks the node chose it */
    public static NodeTls of(String cluster, NodeTlsConfig config, boolean h2) throws TlsFileException {
        SslContextBuilder builder = SslContextBuilder.forClient()
                .sslProvider(TlsProviders.preferred())
                .protocols("TLSv1.3", "TLSv1.2")
                .ciphers(ServerTls.DEFAULT_CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
                .endpointIdentificationAlgorithm(config.verifyHostnameOrDefault() ? "HTTPS" : null);
        if (h2) {
            builder.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                    ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                    ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, ApplicationProtocolNames.HTTP_2));
        }
        if (config.ca() != null) {
            builder.trustManager(PemFiles.certificates(config.ca()));
        }
        if (!config.verifyHostnameOrDefault()) {
            log.warn("cluster {}: nodeTls.verifyHostname is false: node certificates are not checked against the "
                    + "node's host name", cluster);
        }
        try {
            return new NodeTls(builder.build());
        } catch (SSLException e) {
            throw new TlsFileException("nodeTls: cannot set up TLS: " + e.getMessage());
        }
    }

    /**
     * Opens node connections to {@code address} with {@code base}, TLS first: the future completes when the
     * handshake has, and fails when it does.
     */
    public Function<ChannelInitializer<Channel>, ChannelFuture> connector(Bootstrap base, InetSocketAddress address) {
        return pipeline -> {
            ChannelFuture connect = base.clone().handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast("tls", context.newHandler(ch.alloc(), address.getHostString(),
                            address.getPort()));
                    ch.pipeline().addLast(pipeline);
                }
            }).connect(address);
            ChannelPromise ready = connect.channel().newPromise();
            connect.addListener((ChannelFuture f) -> {
                if (!f.isSuccess()) {
                    ready.tryFailure(f.cause());
                    return;
                }
                f.channel().pipeline().get(SslHandler.class).handshakeFuture().addListener(h -> {
                    if (h.isSuccess()) {
                        ready.trySuccess();
                    } else {
                        ready.tryFailure(h.cause());
                        f.channel().close();
                    }
                });
            });
            return ready;
        };
    }
}
