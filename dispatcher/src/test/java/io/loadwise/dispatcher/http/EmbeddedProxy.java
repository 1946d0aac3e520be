package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.http.codec.ClientCodec;
import io.loadwise.policy.PolicyRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One client connection of an HTTP cluster on {@link EmbeddedChannel}s: the real pipeline (codec,
 * {@link FrontendHandler}, {@link Exchange}) with node connections that are embedded channels too. No
 * sockets and no threads: the test moves bytes and time itself.
 */
final class EmbeddedProxy implements AutoCloseable {

    /** How the next node connection attempt ends. */
    enum Connect { SUCCEED, REFUSE, HANG }

    private static final PolicyRegistry POLICIES = PolicyRegistry.load();

    final VirtualCluster cluster;
    final HttpProxyServer server;
    final EmbeddedChannel client;
    final FrontendHandler frontend;
    final List<EmbeddedChannel> nodeConnections = new ArrayList<>();
    final List<ChannelPromise> pendingConnects = new ArrayList<>();
    Connect next = Connect.SUCCEED;

    EmbeddedProxy(Consumer<ClusterConfig.Builder> settings) {
        ClusterConfig.Builder config = ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").unhealthyRetryMs(60_000)
                .nodes(List.of(new NodeConfig("a", "127.0.0.1:1", null, null, null, null),
                        new NodeConfig("b", "127.0.0.1:2", null, null, null, null)));
        settings.accept(config);
        cluster = new VirtualCluster(config.build(), POLICIES, System::nanoTime);
        server = new HttpProxyServer(cluster, null);
        server.useConnectors(node -> pipeline -> connect(pipeline));
        ClientCodec codec = new ClientCodec(cluster.config().maxHeaderBytesOrDefault());
        frontend = new FrontendHandler(server.listener(), codec.requestDecoder());
        client = clientChannel(codec, frontend);
    }

    private final List<EmbeddedChannel> otherClients = new ArrayList<>();

    private static EmbeddedChannel clientChannel(ClientCodec codec, FrontendHandler handler) {
        EmbeddedChannel channel = new EmbeddedChannel(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast("codec", codec).addLast(HttpProxyServer.FRONTEND, handler); // names as served
            }
        });
        channel.freezeTime();
        return channel;
    }

    /** Another client connection to the same cluster, on its own (embedded) event loop. */
    EmbeddedChannel newClient() {
        ClientCodec codec = new ClientCodec(cluster.config().maxHeaderBytesOrDefault());
        EmbeddedChannel other = clientChannel(codec, new FrontendHandler(server.listener(), codec.requestDecoder()));
        otherClients.add(other);
        return other;
    }

    static void sends(EmbeddedChannel clientChannel, String text) {
        clientChannel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
    }

    /** Everything {@code clientChannel} was sent since the last call (its loop's pending tasks run first). */
    static String received(EmbeddedChannel clientChannel) {
        return drain(clientChannel);
    }

    /** Advances the clock of {@code clientChannel}'s loop and runs what falls due. */
    static void advance(EmbeddedChannel clientChannel, long millis) {
        clientChannel.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        clientChannel.runScheduledPendingTasks();
        clientChannel.runPendingTasks();
    }

    private ChannelFuture connect(ChannelInitializer<Channel> pipeline) {
        EmbeddedChannel node = new EmbeddedChannel(pipeline);
        switch (next) {
            case REFUSE:
                node.close();
                return node.newFailedFuture(new ConnectException("Connection refused"));
            case HANG:
                ChannelPromise promise = node.newPromise();
                pendingConnects.add(promise);
                return promise;
            default:
                nodeConnections.add(node);
                return node.newSucceededFuture();
        }
    }

    void clientSends(String text) {
        client.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
    }

    /** Everything the client was sent since the last call. */
    String clientReceived() {
        return drain(client);
    }

    EmbeddedChannel node(int i) {
        return nodeConnections.get(i);
    }

    /** Everything node connection {@code i} was sent since the last call. */
    String nodeReceived(int i) {
        return drain(node(i));
    }

    void nodeSends(int i, String text) {
        node(i).writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
    }

    void advance(long millis) {
        client.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        client.runScheduledPendingTasks();
        client.runPendingTasks();
    }

    NodeState nodeState(String name) {
        return cluster.node(name);
    }

    /** Every counter started was ended, and no node has work assigned. */
    void assertSettled() {
        assertEquals(0, cluster.counters().activeRequests(), "active requests");
        for (NodeState node : cluster.nodes()) {
            assertEquals(0, node.inFlightRequests(), node.name() + " in flight");
            assertEquals(0, node.activeConnections(), node.name() + " assigned");
        }
    }

    private static String drain(EmbeddedChannel channel) {
        channel.runPendingTasks();
        StringBuilder text = new StringBuilder();
        Object msg;
        while ((msg = channel.readOutbound()) != null) {
            ByteBuf buf = (ByteBuf) msg;
            text.append(buf.toString(StandardCharsets.ISO_8859_1));
            buf.release();
        }
        return text.toString();
    }

    void assertClientClosed() {
        client.runPendingTasks();
        assertTrue(!client.isOpen(), "the client connection is closed");
    }

    @Override
    public void close() {
        client.finishAndReleaseAll();
        for (EmbeddedChannel other : otherClients) {
            other.finishAndReleaseAll();
        }
        for (EmbeddedChannel node : nodeConnections) {
            node.finishAndReleaseAll();
        }
    }
}
