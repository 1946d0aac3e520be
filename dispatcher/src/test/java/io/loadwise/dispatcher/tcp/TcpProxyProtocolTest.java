package io.loadwise.dispatcher.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ProxyProtocolConfig;
import io.loadwise.dispatcher.net.ProxyProtocolStats.Refusal;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.EchoServer;
import io.loadwise.testsupport.TestRoundRobinPolicy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A tcp cluster that reads a balancer's PROXY header and sends its own to the node: an echo node returns the
 * exact bytes it received, header first, so the test sees what the node saw.
 */
class TcpProxyProtocolTest {

    private final Transport transport = new Transport(1);
    private EchoServer node;
    private TcpProxyServer server;

    @AfterEach
    void tearDown() throws IOException {
        if (server != null) {
            server.close();
        }
        if (node != null) {
            node.close();
        }
        transport.close();
    }

    private InetSocketAddress start(String send, List<String> trusted) throws IOException {
        node = new EchoServer();
        ClusterConfig base = Configs.tcp("t", TestRoundRobinPolicy.ID, Configs.nodes(node.address()));
        ClusterConfig config = base.toBuilder().sendProxyProtocol(send)
                .proxyProtocol(trusted == null ? null : new ProxyProtocolConfig("any", trusted, 2_000)).build();
        server = new TcpProxyServer(new VirtualCluster(config, PolicyRegistry.load(), System::nanoTime), transport);
        return server.start();
    }

    private static String readUntil(InputStream in, String end) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        while (!got.toString(StandardCharsets.ISO_8859_1).endsWith(end)) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            got.write(b);
        }
        return got.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void theBalancersClientIsPassedOnInTheNodesV1Header() throws IOException {
        InetSocketAddress at = start("v1", List.of("127.0.0.0/8"));
        try (Socket s = new Socket(at.getAddress(), at.getPort())) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write("PROXY TCP4 203.0.113.7 10.9.9.9 51234 443\r\nhello\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            String echoed = readUntil(s.getInputStream(), "hello\n");
            assertEquals("PROXY TCP4 203.0.113.7 127.0.0.1 51234 " + at.getPort() + "\r\nhello\n", echoed);
        }
        assertEquals(1, server.proxyProtocolStats().acceptedCount());
    }

    @Test
    void aDirectClientIsSentAsItselfInV2() throws IOException {
        InetSocketAddress at = start("v2", null);
        try (Socket s = new Socket(at.getAddress(), at.getPort())) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write("hi\n".getBytes(StandardCharsets.ISO_8859_1));
            byte[] header = s.getInputStream().readNBytes(28);
            assertEquals(0x21, header[12], "v2, PROXY");
            assertEquals(0x11, header[13], "TCP over IPv4");
            assertEquals(12, header[15]);
            assertEquals(s.getLocalPort(), ((header[24] & 0xff) << 8) | (header[25] & 0xff), "the client's port");
            assertEquals(at.getPort(), ((header[26] & 0xff) << 8) | (header[27] & 0xff));
            assertEquals("hi\n", readUntil(s.getInputStream(), "\n"));
        }
    }

    @Test
    void aSpoofedHeaderFromAnUntrustedSourceNeverReachesTheNode() throws IOException {
        InetSocketAddress at = start(null, List.of("10.0.0.0/8"));
        try (Socket s = new Socket(at.getAddress(), at.getPort())) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write("PROXY TCP4 203.0.113.7 10.9.9.9 1 2\r\nhello\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            assertEquals("", readUntil(s.getInputStream(), "\n"), "closed, nothing echoed");
        }
        assertEquals(1, server.proxyProtocolStats().refusedCount(Refusal.UNTRUSTED));
    }
}
