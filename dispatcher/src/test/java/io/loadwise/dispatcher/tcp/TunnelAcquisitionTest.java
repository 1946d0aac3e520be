package io.loadwise.dispatcher.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.OutcomeSink;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.EchoServer;
import io.loadwise.testsupport.TestFirstUsablePolicy;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * L4 tunnels get their node through the same {@code NodeAcquisition} as L7 requests, over real sockets: a
 * refused connect asks for a new picker and is reported to outlier detection before the next node is tried.
 * The echo through the tunnel is the synchronisation: by then the failed connect was handled.
 */
class TunnelAcquisitionTest {

    @Test
    void aRefusedTunnelConnectRefreshesThePickerReportsTheNodeAndOpensOnTheNext() throws Exception {
        try (Transport transport = new Transport(1); EchoServer live = new EchoServer()) {
            VirtualCluster cluster = new VirtualCluster(Configs.tcp("l4", TestFirstUsablePolicy.ID, null, 60_000,
                    Configs.nodes(Configs.deadAddress(), live.address())), PolicyRegistry.load(), System::nanoTime);
            AtomicInteger refreshes = new AtomicInteger();
            List<NodeState> reported = new CopyOnWriteArrayList<>();
            cluster.setRefresher(c -> refreshes.incrementAndGet());
            cluster.setOutcomes(new OutcomeSink() {
                @Override
                public void onResponse(NodeState node, int status) {
                }

                @Override
                public void onFailedAnswer(NodeState node) {
                }

                @Override
                public void onGatewayFailure(NodeState node) {
                    reported.add(node);
                }
            });
            TcpProxyServer server = new TcpProxyServer(cluster, transport);
            InetSocketAddress address = server.start();
            try (Socket client = new Socket(address.getAddress(), address.getPort())) {
                client.setSoTimeout(5_000);
                OutputStream out = client.getOutputStream();
                out.write("through\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = client.getInputStream();
                byte[] echoed = in.readNBytes("through\n".length());
                assertEquals("through\n", new String(echoed, StandardCharsets.US_ASCII));
            } finally {
                server.close();
            }
            NodeState dead = cluster.node("n1");
            assertTrue(dead.connectDown(), "out of selection for unhealthyRetryMs");
            assertEquals(1, refreshes.get(), "a new picker was asked for");
            assertEquals(List.of(dead), reported, "the failed connect went to outlier detection");
        }
    }
}
