package io.loadwise.dispatcher.tls;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.dispatcher.http2.Http2Frontend;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/** A real HTTP cluster on {@code 127.0.0.1:0} in front of one node, configured by the test. */
public final class TlsProxy implements AutoCloseable {

    private static final PolicyRegistry POLICIES = PolicyRegistry.load();

    public final VirtualCluster cluster;
    public final HttpProxyServer server;
    public final InetSocketAddress address;
    private final Transport transport;

    public TlsProxy(String nodeAddress, UnaryOperator<ClusterConfig.Builder> configure) throws IOException {
        this(nodeAddress, System::nanoTime, configure);
    }

    /** With the cluster's clock given: a test that reads a one-second window holds it still. */
    public TlsProxy(String nodeAddress, LongSupplier nanoClock, UnaryOperator<ClusterConfig.Builder> configure)
            throws IOException {
        ClusterConfig config = configure.apply(ClusterConfig.builder().name("web").mode(Mode.HTTP)
                .listen("127.0.0.1:0").policy("round-robin").connectTimeoutMs(1_000).unhealthyRetryMs(60_000)
                .nodes(List.of(new NodeConfig("n1", nodeAddress, null, null, null, null)))).build();
        cluster = new VirtualCluster(config, POLICIES, nanoClock);
        transport = new Transport(1);
        server = new HttpProxyServer(cluster, transport, null, Http2Frontend::new);
        try {
            address = server.start();
        } catch (IOException e) {
            transport.close();
            throw e;
        }
    }

    public int port() {
        return address.getPort();
    }

    @Override
    public void close() {
        server.close();
        transport.close();
    }
}
