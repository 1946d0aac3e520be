package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.Affinity;
import io.loadwise.dispatcher.config.Balance;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.net.TransportKind;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.dispatcher.http2.Http2Frontend;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A running HTTP cluster on {@code 127.0.0.1:0} in front of real nodes; built fluently, closed by the
 * test. {@link #assertSettled()} checks that every counter started was ended.
 */
final class ProxyFixture implements AutoCloseable {

    static final PolicyRegistry POLICIES = PolicyRegistry.load();

    private final List<NodeConfig> nodes = new ArrayList<>();
    String policy = "round-robin";
    Balance balance;
    Affinity affinity;
    Integer responseTimeoutMs;
    Integer idleTimeoutMs;
    Integer maxHeaderBytes;
    Integer maxConnectionsPerNode;
    Integer connectAttempts;
    List<String> trustedProxies;
    io.loadwise.dispatcher.config.ProxyProtocolConfig proxyProtocol;
    String sendProxyProtocol;
    Integer queueTimeoutMs;
    /** Every node's {@code maxConnections}; {@code null}: no limit. */
    Integer nodeMaxConnections;
    int workerThreads = 1;
    TransportKind transportKind = TransportKind.AUTO;

    VirtualCluster cluster;
    Transport transport;
    HttpProxyServer server;
    InetSocketAddress address;

    ProxyFixture node(String name, String address) {
        return node(name, address, null, null);
    }

    ProxyFixture node(String name, String address, Integer weight, String route) {
        nodes.add(new NodeConfig(name, address, weight, null, route, null));
        return this;
    }

    /** A node in replication domain {@code domain} ({@code null}: none). */
    ProxyFixture nodeInDomain(String name, String address, String route, String domain) {
        nodes.add(new NodeConfig(name, address, null, null, route, null).withDomain(domain));
        return this;
    }

    ProxyFixture start() throws IOException {
        ClusterConfig config = ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy(policy).balance(balance).affinity(affinity).connectTimeoutMs(1_000)
                .responseTimeoutMs(responseTimeoutMs).idleTimeoutMs(idleTimeoutMs).maxHeaderBytes(maxHeaderBytes)
                .maxConnectionsPerNode(maxConnectionsPerNode).connectAttempts(connectAttempts).unhealthyRetryMs(60_000)
                .trustedProxies(trustedProxies).queueTimeoutMs(queueTimeoutMs).proxyProtocol(proxyProtocol)
                .sendProxyProtocol(sendProxyProtocol)
                .nodes(nodes.stream().map(n -> new NodeConfig(n.name(), n.address(), n.weight(), n.enabled(), n.route(),
                        n.agentPath(), n.healthCheck(), nodeMaxConnections).withDomain(n.domain())).toList())
                .build();
        cluster = new VirtualCluster(config, POLICIES, System::nanoTime);
        transport = new Transport(workerThreads, transportKind);
        server = new HttpProxyServer(cluster, transport, null, Http2Frontend::new);
        address = server.start();
        return this;
    }

    NodeState node(String name) {
        return cluster.node(name);
    }

    RawHttpClient client() throws IOException {
        return new RawHttpClient(address);
    }

    void switchPolicy(String id) {
        cluster.switchPolicy(POLICIES.get(id), PolicyOptions.EMPTY);
    }

    /**
     * Waits (bounded) until no request is active anywhere and no node has work assigned, then checks
     * the totals: every request counted once as completed or failed.
     */
    void assertSettled() throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!settled()) {
            if (System.nanoTime() > deadline) {
                StringBuilder state = new StringBuilder("cluster active=" + cluster.counters().activeRequests());
                for (NodeState node : cluster.nodes()) {
                    state.append("; ").append(node.name()).append(" active=").append(node.counters().activeRequests())
                            .append(" inFlight=").append(node.inFlightRequests())
                            .append(" assigned=").append(node.activeConnections());
                }
                fail("counters did not settle: " + state);
            }
            Thread.sleep(10);
        }
        long nodeTotal = 0;
        for (NodeState node : cluster.nodes()) {
            nodeTotal += node.counters().totalRequests();
        }
        long clusterSent = cluster.counters().totalRequests();
        long retries = cluster.counters().totalRetries(); // a retried request counts on both of its nodes
        if (nodeTotal > clusterSent + retries) {
            fail("nodes counted " + nodeTotal + " requests, cluster only " + clusterSent + " and " + retries
                    + " retries");
        }
    }

    private boolean settled() {
        if (cluster.counters().activeRequests() != 0) {
            return false;
        }
        for (NodeState node : cluster.nodes()) {
            if (node.counters().activeRequests() != 0 || node.inFlightRequests() != 0 || node.activeConnections() != 0) {
                return false;
            }
        }
        return true;
    }

    /** Waits until every client connection the proxy saw is closed. */
    void assertConnectionsClosed() throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (cluster.counters().activeConnections() != 0) {
            if (System.nanoTime() > deadline) {
                assertEquals(0, cluster.counters().activeConnections(), "client connections still open");
            }
            Thread.sleep(10);
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        if (transport != null) {
            transport.close();
        }
    }
}
