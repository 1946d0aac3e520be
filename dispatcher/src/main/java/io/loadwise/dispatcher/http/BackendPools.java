package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.tls.NodeTls;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.Function;
import java.util.concurrent.TimeUnit;

/**
 * The node pools of one event loop: backend connections are made on the loop of the client connection
 * they serve, so a proxied exchange never crosses threads.
 */
final class BackendPools {

    static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(32 * 1024, 64 * 1024);
    /** Idle node connections older than this are closed rather than reused; see {@link NodePool}. */
    static final long MAX_IDLE_NANOS = TimeUnit.SECONDS.toNanos(4);

    private final NodeConnections[] pools;
    /** {@code sendProxyProtocol}; {@code null}: node connections are shared by the clients. */
    private final String sendProxy;
    private final int maxHeadBytes;

    /**
     * @param connectors how to reach each node; {@code null} for sockets through {@code transport}
     *     (tests give embedded channels instead)
     */
    BackendPools(EventLoop loop, VirtualCluster cluster, Transport transport, InetSocketAddress[] addresses,
            Function<NodeState, NodePool.Connector> connectors) {
        this(loop, cluster, transport, addresses, connectors, null);
    }

    /** @param nodeTls TLS to the nodes; {@code null} for clear text */
    BackendPools(EventLoop loop, VirtualCluster cluster, Transport transport, InetSocketAddress[] addresses,
            Function<NodeState, NodePool.Connector> connectors, NodeTls nodeTls) {
        ClusterConfig config = cluster.config();
        Bootstrap base = connectors != null ? null : new Bootstrap()
                .group(loop)
                .channel(transport.socketChannelClass())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, config.connectTimeoutMsOrDefault())
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK);
        int maxHeadBytes = Math.max(config.maxHeaderBytesOrDefault(), 64 * 1024);
        this.maxHeadBytes = maxHeadBytes;
        this.sendProxy = config.sendProxyProtocol();
        List<NodeState> nodes = cluster.nodes();
        this.pools = new NodeConnections[nodes.size()];
        boolean multiplexed = config.nodeProtocolOrDefault().multiplexed();
        for (NodeState node : nodes) {
            NodePool.Connector connector = connectors != null ? connectors.apply(node)
                    : nodeTls != null ? nodeTls.connector(base, addresses[node.index()])::apply
                    : NodePool.socketConnector(base, addresses[node.index()]);
            pools[node.index()] = multiplexed
                    ? new StreamPool(node, connector, maxHeadBytes, config.maxConnectionsPerNodeOrDefault(),
                            nodeTls != null)
                    : new NodePool(node, connector, loop.ticker(), maxHeadBytes,
                            config.maxConnectionsPerNodeOrDefault(), MAX_IDLE_NANOS);
        }
    }

    NodeConnections pool(NodeState node) {
        return pools[node.index()];
    }

    /**
     * Where {@code client}'s requests get their connections to {@code node}: the shared pool, or with
     * {@code sendProxyProtocol} the client connection's own ({@link PrivateConnections}).
     */
    NodeConnections pool(NodeState node, Channel client) {
        NodeConnections pool = pools[node.index()];
        return sendProxy != null && pool instanceof NodePool shared
                ? PrivateConnections.of(client, shared, sendProxy, maxHeadBytes) : pool;
    }

    void closeIdle() {
        for (NodeConnections pool : pools) {
            pool.closeIdle();
        }
    }
}
