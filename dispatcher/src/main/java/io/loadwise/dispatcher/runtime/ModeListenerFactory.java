package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.http2.Http2Frontend;
import io.loadwise.dispatcher.http3.Http3Frontend;
import io.loadwise.dispatcher.net.ClusterListener;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.tcp.TcpProxyServer;

/**
 * The production listener for each mode: {@link TcpProxyServer} for tcp, {@link HttpProxyServer} for http with
 * HTTP/2 ({@link Http2Frontend}) wired in from here, above both packages.
 */
public final class ModeListenerFactory implements ListenerFactory {

    @Override
    public ClusterListener create(VirtualCluster cluster, Transport transport, ConnectionLimit clientConnections) {
        return switch (cluster.config().mode()) {
            case TCP -> new TcpProxyServer(cluster, transport, clientConnections);
            case HTTP -> new HttpProxyServer(cluster, transport, clientConnections, Http2Frontend::new,
                    Http3Frontend::new);
        };
    }
}
