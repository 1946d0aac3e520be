package io.loadwise.dispatcher.adversarial;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.dispatcher.http2.Http2Frontend;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

/** The real L7 listener ({@link HttpProxyServer}) of one cluster, in front of raw nodes. */
final class ProxyUnderTest implements AutoCloseable {

    private static final PolicyRegistry POLICIES = PolicyRegistry.load();

    private final HttpProxyServer server;
    private final InetSocketAddress address;

    private ProxyUnderTest(HttpProxyServer server, InetSocketAddress address) {
        this.server = server;
        this.address = address;
    }

    static ProxyUnderTest start(Transport transport, ClusterOverrides overrides, List<String> nodeAddresses)
            throws IOException {
        ClusterConfig config = overrides.build("adversarial", nodeAddresses);
        VirtualCluster cluster = new VirtualCluster(config, POLICIES, System::nanoTime);
        HttpProxyServer server = new HttpProxyServer(cluster, transport, null, Http2Frontend::new);
        return new ProxyUnderTest(server, server.start());
    }

    InetSocketAddress address() {
        return address;
    }

    VirtualCluster cluster() {
        return server.cluster();
    }

    @Override
    public void close() {
        server.close();
    }
}
