package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.CallOptions;
import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.config.NodeTlsConfig;
import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.dispatcher.http2.Http2Frontend;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestPki;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gRPC through Loadwise end to end with real grpc-java servers as nodes ({@code nodeProtocol: h2c}, and h2 over
 * TLS) and a grpc-java client over h2c and TLS: unary, server and bidi streaming, deadlines, no node, a node killed
 * mid-stream, and calls of one client connection balanced per request over two nodes.
 */
class GrpcThroughLoadwiseTest {

    private static final PolicyRegistry POLICIES = PolicyRegistry.load();

    @TempDir
    static Path dir;
    static TestPki pki;
    static TestPki.Issued localhost;

    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void pki() throws IOException {
        pki = new TestPki(dir);
        localhost = pki.issue("localhost", "localhost", "localhost");
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    /** A cluster in front of {@code nodes} (addresses), over {@code nodeProtocol}, on 127.0.0.1:0. */
    private Proxy proxy(List<String> nodes, UnaryOperator<ClusterConfig.Builder> configure) throws IOException {
        List<NodeConfig> configs = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            configs.add(new NodeConfig("n" + (i + 1), nodes.get(i), null, null, null, null));
        }
        ClusterConfig config = configure.apply(ClusterConfig.builder().name("grpc").mode(Mode.HTTP)
                .listen("127.0.0.1:0").policy("round-robin").connectTimeoutMs(1_000).unhealthyRetryMs(60_000)
                .nodeProtocol("h2c").nodes(configs)).build();
        Proxy proxy = new Proxy(new VirtualCluster(config, POLICIES, System::nanoTime));
        closing.add(proxy);
        return proxy;
    }

    private GrpcNode node(String name) throws IOException {
        GrpcNode node = new GrpcNode(name);
        closing.add(node);
        return node;
    }

    private ManagedChannel channel(int port) {
        return channel(port, InsecureChannelCredentials.create());
    }

    private ManagedChannel channel(int port, ChannelCredentials credentials) {
        ManagedChannel channel = io.grpc.Grpc.newChannelBuilderForAddress("127.0.0.1", port, credentials)
                .overrideAuthority("localhost:" + port).build();
        closing.add(() -> channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
        return channel;
    }

    private static CallOptions deadline(long ms) {
        return CallOptions.DEFAULT.withDeadlineAfter(ms, TimeUnit.MILLISECONDS);
    }

    @Test
    void unaryCallsOfOneConnectionAreBalancedPerRequestOverTwoNodes() throws IOException {
        GrpcNode n1 = node("n1");
        GrpcNode n2 = node("n2");
        Proxy proxy = proxy(List.of(n1.address(), n2.address()), b -> b);
        ManagedChannel channel = channel(proxy.port);
        Map<String, Integer> byNode = new TreeMap<>();
        for (int i = 0; i < 40; i++) {
            String answer = ClientCalls.blockingUnaryCall(channel, GrpcNode.UNARY, deadline(5_000), "call" + i);
            assertTrue(answer.endsWith(":call" + i), answer);
            byNode.merge(answer.substring(0, 2), 1, Integer::sum);
        }
        assertEquals(Map.of("n1", 20, "n2", 20), byNode, "round-robin per call, on one client connection");
        assertEquals(1, n1.connections.get(), "one multiplexed connection to n1");
        assertEquals(1, n2.connections.get(), "one multiplexed connection to n2");
        awaitIdle(proxy);
    }

    @Test
    void serverStreamingRelaysEveryMessageInOrder() throws IOException {
        GrpcNode n1 = node("n1");
        Proxy proxy = proxy(List.of(n1.address()), b -> b);
        Iterator<String> messages = ClientCalls.blockingServerStreamingCall(channel(proxy.port),
                GrpcNode.SERVER_STREAM, deadline(5_000), "200");
        for (int i = 0; i < 200; i++) {
            assertEquals("n1:" + i, messages.next());
        }
        assertTrue(!messages.hasNext(), "the call ended with its status (trailers)");
        awaitIdle(proxy);
    }

    @Test
    void bidiStreamingEchoesBothWaysAndEndsWithOk() throws Exception {
        GrpcNode n1 = node("n1");
        Proxy proxy = proxy(List.of(n1.address()), b -> b);
        Collector answers = new Collector();
        StreamObserver<String> requests = ClientCalls.asyncBidiStreamingCall(
                channel(proxy.port).newCall(GrpcNode.BIDI, deadline(5_000)), answers);
        for (int i = 0; i < 20; i++) {
            requests.onNext("m" + i);
        }
        requests.onCompleted();
        List<String> got = answers.done.get(10, TimeUnit.SECONDS);
        assertEquals(20, got.size());
        assertEquals("n1:m0", got.get(0));
        assertEquals("n1:m19", got.get(19));
        awaitIdle(proxy);
    }

    @Test
    void overTlsToLoadwiseAndH2OverTlsToTheNode() throws Exception {
        GrpcNode n1 = new GrpcNode("n1", localhost.certificate(), localhost.key());
        closing.add(n1);
        TlsConfig tls = new TlsConfig(localhost.certificate().toString(), localhost.key().toString(), null, null,
                null, null, null, null, null);
        Proxy proxy = proxy(List.of(n1.address()), b -> b.tls(tls).nodeProtocol("h2")
                .nodeTls(new NodeTlsConfig(pki.caCert.toString(), true)));
        ManagedChannel channel = channel(proxy.port, TlsChannelCredentials.newBuilder()
                .trustManager(pki.caCert.toFile()).build());
        assertEquals("n1:secure", ClientCalls.blockingUnaryCall(channel, GrpcNode.UNARY, deadline(5_000), "secure"));
        Iterator<String> messages = ClientCalls.blockingServerStreamingCall(channel, GrpcNode.SERVER_STREAM,
                deadline(5_000), "3");
        assertEquals("n1:0", messages.next());
        assertEquals("n1:1", messages.next());
        assertEquals("n1:2", messages.next());
        assertTrue(!messages.hasNext());
        assertEquals(1, n1.connections.get());
    }

    @Test
    void aDeadlinePassingInTheProxyIsDeadlineExceededAndFreesTheNode() throws IOException {
        GrpcNode n1 = node("n1");
        Proxy proxy = proxy(List.of(n1.address()), b -> b);
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(
                channel(proxy.port), GrpcNode.SLOW, deadline(300), "late"));
        assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode(), e.toString());
        awaitIdle(proxy);
    }

    @Test
    void noNodeIsUnavailable() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Proxy proxy = proxy(List.of("127.0.0.1:" + closed), b -> b);
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(
                channel(proxy.port), GrpcNode.UNARY, deadline(5_000), "x"));
        assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.toString());
        assertTrue(e.getStatus().getDescription().startsWith("502 "), e.getStatus().getDescription());
    }

    @Test
    void aNodeKilledMidStreamFailsTheCallAndTheOtherNodeServesOn() throws Exception {
        GrpcNode n1 = node("n1");
        GrpcNode n2 = node("n2");
        Proxy proxy = proxy(List.of(n1.address(), n2.address()), b -> b);
        ManagedChannel channel = channel(proxy.port);
        Iterator<String> messages = ClientCalls.blockingServerStreamingCall(channel, GrpcNode.SERVER_STREAM,
                deadline(10_000), "hang");
        String first = messages.next();
        GrpcNode serving = first.startsWith("n1") ? n1 : n2;
        messages.next();
        messages.next();
        long start = System.nanoTime();
        serving.kill();
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, messages::next);
        assertTrue(e.getStatus().getCode() != Status.Code.DEADLINE_EXCEEDED, "failed at once, not at its deadline: "
                + e);
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "no hang");
        String other = serving == n1 ? "n2" : "n1";
        for (int i = 0; i < 6; i++) {
            String answer = ClientCalls.blockingUnaryCall(channel, GrpcNode.UNARY, deadline(5_000), "after" + i);
            assertEquals(other + ":after" + i, answer);
        }
        awaitIdle(proxy);
    }

    /** Every request ended: no node counts one in flight any more (what the policies read). */
    private static void awaitIdle(Proxy proxy) {
        poll(() -> proxy.cluster.nodes().stream().allMatch(n -> n.inFlightRequests() == 0), "requests in flight");
    }

    static void poll(BooleanSupplier condition, String what) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("still not true after 5 s: " + what);
            }
            Thread.onSpinWait();
        }
    }

    /** Collects a call's messages; completes with them on OK, exceptionally on an error status. */
    static final class Collector implements StreamObserver<String> {
        final List<String> got = new ArrayList<>();
        final CompletableFuture<List<String>> done = new CompletableFuture<>();

        @Override
        public synchronized void onNext(String value) {
            got.add(value);
        }

        @Override
        public void onError(Throwable t) {
            done.completeExceptionally(t);
        }

        @Override
        public synchronized void onCompleted() {
            done.complete(List.copyOf(got));
        }
    }

    /** A real HTTP cluster with an HTTP/2 listener. */
    static final class Proxy implements AutoCloseable {
        final VirtualCluster cluster;
        final HttpProxyServer server;
        final Transport transport = new Transport(1);
        final int port;

        Proxy(VirtualCluster cluster) throws IOException {
            this.cluster = cluster;
            this.server = new HttpProxyServer(cluster, transport, null, Http2Frontend::new);
            this.port = server.start().getPort();
        }

        @Override
        public void close() {
            server.close();
            transport.close();
        }
    }
}
