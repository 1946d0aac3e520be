package io.loadwise.dispatcher.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.tls.TlsProxy;
import io.loadwise.testsupport.TestPki;
import io.loadwise.testsupport.faults.FaultNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node that resets its connection on a request's head counts as a failed exchange of that node
 * ({@link NodeState#recentFailures()}, what the adaptive policy adds to a node's work) whether the client
 * spoke HTTP/2 or HTTP/1.1: an HTTP/2 stream is served by the same exchange as an HTTP/1.1 request.
 * The cluster's clock stands still, so the one-second window cannot empty while curl runs.
 */
class Http2NodeFailureTest {

    private ResettingNode node;
    private TlsProxy proxy;

    @BeforeEach
    void setUp() throws IOException {
        node = new ResettingNode();
        proxy = new TlsProxy("127.0.0.1:" + node.port(), () -> 1_000_000_000L, b -> b);
    }

    @AfterEach
    void tearDown() throws IOException {
        proxy.close();
        node.close();
    }

    private TestPki.Result curl(String option) throws IOException {
        return TestPki.exec(List.of("curl", "-sS", "-v", "--max-time", "10", option,
                "http://127.0.0.1:" + proxy.port() + "/reset"), null, 20);
    }

    @Test
    void aStreamWhoseNodeResetsCountsAsAFailureOfTheNode() throws IOException {
        TestPki.Result result = curl("--http2-prior-knowledge");
        assertTrue(result.output().contains("< HTTP/2 502"), result.output());
        assertNodeFailedOnce();
    }

    @Test
    void anHttp11RequestWhoseNodeResetsCountsTheSame() throws IOException {
        TestPki.Result result = curl("--http1.1");
        assertTrue(result.output().contains("< HTTP/1.1 502"), result.output());
        assertNodeFailedOnce();
    }

    private void assertNodeFailedOnce() {
        NodeState n1 = proxy.cluster.node("n1");
        assertEquals(1, n1.recentFailures(), "what the adaptive policy counts on n1");
        assertEquals(1, n1.counters().failedRequests(), "the node's failed requests");
        assertEquals(0, n1.inFlightRequests(), "the failed request ended");
    }

    /** Accepts connections, reads one request head on each and resets it (RST: SO_LINGER 0). */
    private static final class ResettingNode implements AutoCloseable {

        private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());

        ResettingNode() throws IOException {
            Thread acceptor = new Thread(this::serve, "resetting-node-" + listener.getLocalPort());
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return listener.getLocalPort();
        }

        private void serve() {
            while (true) {
                try (Socket socket = listener.accept()) {
                    FaultNode.readHead(socket.getInputStream());
                    socket.setSoLinger(true, 0);
                } catch (IOException closed) {
                    if (listener.isClosed()) {
                        return;
                    }
                }
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }
}
