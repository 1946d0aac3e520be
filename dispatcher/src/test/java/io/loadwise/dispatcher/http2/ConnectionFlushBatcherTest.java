package io.loadwise.dispatcher.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Http2Config;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.http.codec.ClientCodec;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.policy.PolicyRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An HTTP/2 connection's flushes are batched before they reach the socket: each stream's response ends with a
 * flush of the connection, and the flushes of one event-loop pass must become one write while what waits is
 * small, yet a large write must not wait. Checked on the real pipeline of a client connection for both ways
 * into HTTP/2, prior knowledge and the h2c upgrade, with the flushes issued where the streams issue them (the
 * multiplexer's context, so they pass the frame codec), and on the batcher alone for each event that must
 * release a held flush.
 */
class ConnectionFlushBatcherTest {

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /** An empty SETTINGS frame: length 0, type 4, no flags, stream 0. */
    private static final byte[] EMPTY_SETTINGS = {0, 0, 0, 4, 0, 0, 0, 0, 0};

    private Transport transport;
    private EmbeddedChannel client;
    private FlushCounter flushes;

    @BeforeEach
    void setUp() {
        ClusterConfig config = ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").nodes(List.of(new NodeConfig("a", "127.0.0.1:1", null, null, null, null)))
                .build();
        transport = new Transport(1); // node connections are never made: no request reaches a node here
        HttpProxyServer server = new HttpProxyServer(new VirtualCluster(config, PolicyRegistry.load(), System::nanoTime),
                transport);
        Http2Frontend http2 = new Http2Frontend(server.listener(), new Http2Config(null, null, null), 16 * 1024, false);
        flushes = new FlushCounter();
        client = new EmbeddedChannel(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) { // before the channel is active, as a served connection
                ch.pipeline().addLast("flush-counter", flushes)
                        .addLast(HttpProxyServer.CODEC, new ClientCodec(16 * 1024))
                        .addLast("frontend", server.listener().newStreamFrontend());
                http2.addDetectors(ch.pipeline());
            }
        });
    }

    @AfterEach
    void tearDown() {
        client.finishAndReleaseAll();
        transport.close();
    }

    @Test
    void withPriorKnowledgeTheFlushesOfOnePassBecomeOne() {
        ByteBuf hello = Unpooled.buffer().writeBytes(PREFACE).writeBytes(EMPTY_SETTINGS);
        client.writeInbound(hello);
        client.runPendingTasks();
        assertBatchedBeforeTheCodec();
    }

    @Test
    void afterAnH2cUpgradeTheFlushesOfOnePassBecomeOne() {
        client.writeInbound(Unpooled.copiedBuffer("GET / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n", StandardCharsets.US_ASCII));
        client.runPendingTasks();
        ByteBuf switching = client.readOutbound();
        String answer = switching.toString(StandardCharsets.US_ASCII);
        switching.release();
        assertTrue(answer.startsWith("HTTP/1.1 101 Switching Protocols\r\n"), answer);
        assertBatchedBeforeTheCodec();
    }

    private void assertBatchedBeforeTheCodec() {
        List<String> names = client.pipeline().names();
        assertTrue(client.pipeline().get(ConnectionFlushBatcher.class) != null, "batcher in " + names);
        assertTrue(client.pipeline().get(Http2FrameCodec.class) != null, "frame codec in " + names);
        int batcher = names.indexOf(client.pipeline().context(ConnectionFlushBatcher.class).name());
        int codec = names.indexOf(client.pipeline().context(Http2FrameCodec.class).name());
        assertEquals(codec - 1, batcher, "the batcher sits right before the frame codec: " + names);

        client.releaseOutbound();
        ChannelHandlerContext streams = client.pipeline().context(Http2MultiplexHandler.class);
        int before = flushes.count;
        streams.flush(); // two streams' responses end in the same pass over the ready sockets
        streams.flush();
        assertEquals(before, flushes.count, "nothing reaches the socket during the pass");
        client.runPendingTasks(); // the pass ends
        assertEquals(before + 1, flushes.count, "one write for both");
    }

    @Test
    void aSmallFlushWaitsForThePassToEnd() {
        FlushCounter counter = new FlushCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter, new ConnectionFlushBatcher(100));
        ch.pipeline().write(Unpooled.wrappedBuffer(new byte[99]));
        ch.pipeline().flush();
        assertEquals(0, counter.count, "99 of 100 bytes: held");
        assertTrue(ch.outboundMessages().isEmpty());
        ch.runPendingTasks(); // the pass ends
        assertEquals(1, counter.count);
        assertEquals(1, ch.outboundMessages().size());
        assertTrue(ch.finishAndReleaseAll());
    }

    @Test
    void aWriteThatReachesTheThresholdIsFlushedAtOnce() {
        FlushCounter counter = new FlushCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter, new ConnectionFlushBatcher(100));
        ch.pipeline().write(Unpooled.wrappedBuffer(new byte[100]));
        ch.pipeline().flush();
        assertEquals(1, counter.count, "100 bytes: through at once");
        assertFalse(ch.hasPendingTasks(), "and no task left behind");
        // (an EmbeddedChannel runs its pending tasks on every write, so the next write cannot be added to a held one)
        ch.pipeline().write(Unpooled.wrappedBuffer(new byte[10]));
        ch.pipeline().flush();
        assertEquals(1, counter.count, "the count starts again after each flush: 10 bytes are held");
        ch.runPendingTasks();
        assertEquals(2, counter.count);
        assertEquals(2, ch.outboundMessages().size());
        assertTrue(ch.finishAndReleaseAll());
    }

    @Test
    void duringAReadOfTheConnectionAFlushWaitsForTheReadToComplete() {
        FlushCounter counter = new FlushCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter, new ConnectionFlushBatcher(100), new AnswerEachRead());
        ch.pipeline().fireChannelRead(Unpooled.wrappedBuffer(new byte[] {1}));
        ch.pipeline().fireChannelRead(Unpooled.wrappedBuffer(new byte[] {2}));
        ch.runPendingTasks();
        assertEquals(0, counter.count, "a read in progress: the pass's task does not flush");
        ch.pipeline().fireChannelReadComplete();
        assertEquals(1, counter.count, "both answers leave with the read's end");
        assertEquals(2, ch.outboundMessages().size());
        assertTrue(ch.finishAndReleaseAll());
    }

    @Test
    void aConnectionThatTurnsUnwritableFlushesWhatItHolds() {
        FlushCounter counter = new FlushCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter, new ConnectionFlushBatcher(1 << 20));
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(32, 64));
        ch.pipeline().write(Unpooled.wrappedBuffer(new byte[10]));
        ch.pipeline().flush();
        assertEquals(0, counter.count);
        ch.pipeline().write(Unpooled.wrappedBuffer(new byte[100])); // past the high-water mark: unwritable
        assertEquals(1, counter.count, "held bytes only drain once flushed");
        assertEquals(2, ch.outboundMessages().size());
        assertTrue(ch.isWritable(), "and drained, the connection is writable again");
        assertTrue(ch.finishAndReleaseAll());
    }

    @Test
    void closingFlushesWhatIsHeldFirst() {
        FlushCounter counter = new FlushCounter();
        EmbeddedChannel ch = new EmbeddedChannel(counter, new ConnectionFlushBatcher(100));
        ch.pipeline().writeAndFlush(Unpooled.wrappedBuffer(new byte[9])); // a GOAWAY, say
        assertEquals(0, counter.count);
        ch.close();
        assertEquals(1, counter.count, "the held frame reaches the socket before the close");
        ByteBuf goAway = ch.readOutbound();
        assertEquals(9, goAway.readableBytes());
        goAway.release();
        ch.finishAndReleaseAll();
    }

    /** Answers every inbound message with a small write and a flush, as a stream's quick answer would. */
    private static final class AnswerEachRead extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ((ByteBuf) msg).release();
            ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[5]));
        }
    }

    /** Counts the flushes that reach the socket. */
    private static final class FlushCounter extends ChannelOutboundHandlerAdapter {
        int count;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            count++;
            ctx.flush();
        }
    }
}
