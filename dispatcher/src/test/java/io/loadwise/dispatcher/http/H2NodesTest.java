package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.CallOptions;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestPki;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/2 to nodes ({@code nodeProtocol: h2c}) against a scripted Netty node ({@link H2Node}): h2load through
 * Loadwise on few node connections (multiplexing), the node's SETTINGS_MAX_CONCURRENT_STREAMS kept, trailers both
 * ways over an HTTP/1.1 client, GOAWAY, RST_STREAM and oversized trailers from the node, a gRPC response without
 * {@code grpc-status}, and the proxy's own gRPC deadline answers.
 */
class H2NodesTest {

    private static final PolicyRegistry POLICIES = PolicyRegistry.load();

    @TempDir
    Path dir;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    private H2Node node(long maxStreams) throws InterruptedException {
        H2Node node = new H2Node(maxStreams, 100_000);
        closing.add(node);
        return node;
    }

    private GrpcThroughLoadwiseTest.Proxy proxy(H2Node node, UnaryOperator<ClusterConfig.Builder> configure)
            throws IOException {
        ClusterConfig config = configure.apply(ClusterConfig.builder().name("h2").mode(Mode.HTTP)
                .listen("127.0.0.1:0").policy("round-robin").connectTimeoutMs(1_000).unhealthyRetryMs(60_000)
                .nodeProtocol("h2c").nodes(List.of(new NodeConfig("n1", node.address(), null, null, null, null))))
                .build();
        GrpcThroughLoadwiseTest.Proxy proxy = new GrpcThroughLoadwiseTest.Proxy(
                new VirtualCluster(config, POLICIES, System::nanoTime));
        closing.add(proxy);
        return proxy;
    }

    private static TestPki.Result curl(int port, String path, String... options) throws IOException {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "-i", "--max-time", "10",
                "--http2-prior-knowledge"));
        command.addAll(List.of(options));
        command.add("http://127.0.0.1:" + port + path);
        return TestPki.exec(command, null, 20);
    }

    private static int h2load(int port, int requests, int clients, int streams) throws IOException {
        TestPki.Result result = TestPki.exec(List.of("h2load", "-n", String.valueOf(requests), "-c",
                String.valueOf(clients), "-m", String.valueOf(streams), "http://127.0.0.1:" + port + "/"), null, 60);
        assertEquals(0, result.exit(), result.output());
        Matcher done = Pattern.compile("(\\d+) succeeded, (\\d+) failed, (\\d+) errored").matcher(result.output());
        assertTrue(done.find(), result.output());
        assertEquals("0", done.group(2), result.output());
        assertEquals("0", done.group(3), result.output());
        assertTrue(result.output().contains("status codes: " + requests + " 2xx"), result.output());
        return Integer.parseInt(done.group(1));
    }

    @Test
    void h2loadThroughLoadwiseIsMultiplexedOnOneNodeConnection() throws Exception {
        H2Node node = node(1000);
        GrpcThroughLoadwiseTest.Proxy proxy = proxy(node, b -> b);
        assertEquals(5000, h2load(proxy.port, 5000, 4, 20));
        assertEquals(1, node.connections.get(), "80 streams at once at most: one node connection carries them");
        assertTrue(node.maxConcurrent.get() > 1, "streams ran concurrently: " + node.maxConcurrent.get());
        assertTrue(node.maxConcurrent.get() <= StreamPool.MAX_STREAMS_PER_CONNECTION, node.maxConcurrent.toString());
        GrpcThroughLoadwiseTest.poll(() -> proxy.cluster.node("n1").inFlightRequests() == 0, "in flight");
    }

    @Test
    void theNodesMaxConcurrentStreamsIsKeptAndMoreConnectionsOpenUpToTheLimit() throws Exception {
        H2Node node = node(5);
        GrpcThroughLoadwiseTest.Proxy proxy = proxy(node, b -> b.maxConnectionsPerNode(3));
        assertEquals(2000, h2load(proxy.port, 2000, 2, 40));
        assertTrue(node.connections.get() <= 3, "at most maxConnectionsPerNode: " + node.connections.get());
        assertTrue(node.maxConcurrent.get() <= 15, "5 streams per connection: " + node.maxConcurrent.get());
        assertTrue(node.connections.get() > 1, "a second connection when the first was full");
    }

    @Test
    void trailersGoBothWaysForAnHttp11Client() throws IOException, InterruptedException {
        H2Node node = node(100);
        GrpcThroughLoadwiseTest.Proxy proxy = proxy(node, b -> b);
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /trailers HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nTE: trailers\r\n"
                    + "Connection: close\r\n\r\n4\r\nbody\r\n0\r\nx-t: from-client\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(response.startsWith("HTTP/1.1 200"), response);
            assertTrue(response.toLowerCase().contains("transfer-encoding: chunked"), response);
            assertTrue(response.contains("0\r\nx-echo-trailer: from-client\r\n\r\n"), response);
            assertTrue(!response.toLowerCase().contains("x-http2-stream-id"), response);
        }
    }

    @Test
    void aGoAwayDrainsItsConnectionAndTheNextRequestOpensAnother() throws Exception {
        H2Node node = node(100);
        GrpcThroughLoadwiseTest.Proxy proxy = proxy(node, b -> b);
        assertTrue(curl(proxy.port, "/goaway").output().contains("HTTP/2 200"));
        GrpcThroughLoadwiseTest.poll(() -> node.connections.get() == 1, "one connection");
        TestPki.Result next = curl(proxy.port, "/");
        assertTrue(next.output().contains("HTTP/2 200"), next.output());
        assertEquals(2, node.connections.get(), "the drained connection took no new stream");
    }

    @Test
    void aNodesResetStreamIs502AndTheConnectionServesOn() throws Exception {
        H2Node node = node(100);
        GrpcThroughLoadwiseTest.Proxy proxy = proxy(node, b -> b);
        TestPki.Result reset = curl(proxy.port, "/reset");
        assertTrue(reset.output().contains("HTTP/2 502"), reset.output());
        TestPki.Result next = curl(proxy.port, "/");
        assertTrue(next.output().contains("HTTP/2 200"), next.output());
        assertEquals(1, node.connections.get(), "a stream's reset does not end its connection");
        GrpcThroughLoadwiseTest.poll(() -> proxy.cluster.node("n1").inFlightRequests() == 0, "in flight");
    }

    @Test
    void trailersBeyondMaxHeaderBytesResetTheClientsStreamOnly() throws Exception {
        H2Node node = node(100);
        GrpcThroughLoadwiseTest.Proxy proxy = proxy(node, b -> b);
        TestPki.Result huge = curl(proxy.port, "/huge-trailers");
        assertNotEquals(0, huge.exit(), "the response cannot end well: " + huge.output());
        assertTrue(!huge.output().contains("x-huge-1"), "no trailer of the oversized block reached the client");
        TestPki.Result next = curl(proxy.port, "/");
        assertTrue(next.output().contains("HTTP/2 200"), next.output());
        GrpcThroughLoadwiseTest.poll(() -> proxy.cluster.node("n1").inFlightRequests() == 0, "in flight");
    }

    @Test
    void aGrpcResponseWithoutGrpcStatusIsRelayedAsItCameAndTheClientSeesAnError() throws Exception {
        H2Node node = node(100);
        GrpcThroughLoadwiseTest.Proxy proxy = proxy(node, b -> b);
        ManagedChannel channel = io.grpc.Grpc.newChannelBuilderForAddress("127.0.0.1", proxy.port,
                InsecureChannelCredentials.create()).build();
        closing.add(() -> channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
        MethodDescriptor<String, String> call = GrpcNode.method("Call", MethodDescriptor.MethodType.UNARY).toBuilder()
                .setFullMethodName("no-status/Call").build();
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(
                channel, call, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS), "x"));
        assertNotEquals(Status.Code.OK, e.getStatus().getCode());
        assertNotEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode(), e.toString());
        TestPki.Result raw = curl(proxy.port, "/no-status/Call", "-H", "content-type: application/grpc",
                "--data-binary", "@" + grpcFrame());
        assertTrue(raw.output().contains("x-other: 1"), "the node's trailers, unchanged: " + raw.output());
        assertTrue(!raw.output().contains("grpc-status"), "none added: " + raw.output());
    }

    @Test
    void aGrpcTimeoutPassingInTheProxyIsDeadlineExceededInTrailersOnlyForm() throws Exception {
        H2Node node = node(100);
        GrpcThroughLoadwiseTest.Proxy proxy = proxy(node, b -> b);
        long start = System.nanoTime();
        TestPki.Result result = curl(proxy.port, "/slow", "-H", "content-type: application/grpc", "-H",
                "grpc-timeout: 200m", "-H", "te: trailers", "--data-binary", "@" + grpcFrame());
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(result.output().contains("HTTP/2 200"), result.output());
        assertTrue(result.output().contains("grpc-status: 4"), result.output());
        assertTrue(result.output().contains("grpc-message: 408 grpc-timeout of 200 ms passed"), result.output());
        assertTrue(ms < 5_000, ms + " ms");
        GrpcThroughLoadwiseTest.poll(() -> proxy.cluster.node("n1").inFlightRequests() == 0, "in flight");
    }

    @Test
    void anInvalidGrpcTimeoutIsIgnoredAndTheClustersTimeoutApplies() throws Exception {
        H2Node node = node(100);
        GrpcThroughLoadwiseTest.Proxy proxy = proxy(node, b -> b.responseTimeoutMs(700));
        TestPki.Result result = curl(proxy.port, "/slow", "-H", "content-type: application/grpc", "-H",
                "grpc-timeout: 1x", "--data-binary", "@" + grpcFrame());
        assertTrue(result.output().contains("grpc-status: 4"), result.output());
        assertTrue(result.output().contains("did not answer within 700 ms"), result.output());
    }

    /** A file holding one gRPC message ({@code x}), for curl's {@code --data-binary}. */
    private Path grpcFrame() throws IOException {
        Path file = dir.resolve("frame.bin");
        Files.write(file, new byte[] {0, 0, 0, 0, 1, 'x'});
        return file;
    }
}
