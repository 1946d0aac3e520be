package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.acquire.NodeConnector;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.config.NodeConfig;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link StreamPool} on embedded channels: each node connection is an {@link EmbeddedChannel} wired, byte for byte,
 * to an embedded node with Netty's server frame codec, so the pool's handlers see real SETTINGS and GOAWAY frames.
 */
class StreamPoolTest {

    private final List<EmbeddedChannel> connections = new ArrayList<>();
    private final List<EmbeddedChannel> nodes = new ArrayList<>();
    private final List<Channel> ready = new ArrayList<>();
    private final List<Throwable> failed = new ArrayList<>();
    private boolean closing;
    private final NodeConnector.Waiter waiter = new NodeConnector.Waiter() {
        @Override
        public void onBackendReady(Channel backend) {
            ready.add(backend);
        }

        @Override
        public void onBackendFailed(Throwable cause) {
            failed.add(cause);
        }
    };

    @AfterEach
    void tearDown() {
        closing = true; // a waiter left in line gets no new connection now
        for (EmbeddedChannel c : List.copyOf(connections)) {
            c.finishAndReleaseAll();
        }
        for (EmbeddedChannel n : List.copyOf(nodes)) {
            n.finishAndReleaseAll();
        }
    }

    /** A pool whose node announces {@code maxStreams}; its connections wait for the node's SETTINGS until {@link #pump}. */
    private StreamPool pool(long maxStreams, int maxConnections) {
        NodeState node = new NodeState(0, new NodeConfig("a", "127.0.0.1:1", null, null, null, null), null, 3_000,
                System::nanoTime);
        return new StreamPool(node, pipeline -> {
            if (closing) {
                return new EmbeddedChannel().newFailedFuture(new java.io.IOException("test over"));
            }
            EmbeddedChannel connection = new EmbeddedChannel(pipeline);
            connections.add(connection);
            nodes.add(new EmbeddedChannel(Http2FrameCodecBuilder.forServer()
                    .initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(maxStreams)).build(),
                    new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ReferenceCountUtil.release(msg);
                        }
                    }));
            return connection.newSucceededFuture();
        }, 64 * 1024, maxConnections, false);
    }

    /** Moves the bytes each side wrote to the other until neither writes more. */
    private void pump() {
        boolean moved = true;
        while (moved) {
            moved = false;
            for (int i = 0; i < connections.size(); i++) {
                moved |= move(connections.get(i), nodes.get(i));
                moved |= move(nodes.get(i), connections.get(i));
            }
        }
    }

    private static boolean move(EmbeddedChannel from, EmbeddedChannel to) {
        boolean moved = false;
        ByteBuf bytes;
        from.runPendingTasks();
        while ((bytes = from.readOutbound()) != null) {
            moved = true;
            if (to.isActive()) {
                to.writeInbound(bytes);
            } else {
                bytes.release();
            }
        }
        return moved;
    }

    @Test
    void streamsWaitForTheNodesSettingsThenShareOneConnectionUpToItsLimit() {
        StreamPool pool = pool(2, 1);
        pool.acquire(waiter);
        pool.acquire(waiter);
        pool.acquire(waiter);
        assertEquals(0, ready.size(), "no stream before the node's SETTINGS");
        assertEquals(1, connections.size(), "one connection is being opened for all three");
        pump();
        assertEquals(2, ready.size(), "the node allows two streams");
        assertEquals(1, connections.size(), "maxConnectionsPerNode 1: the third waits");
        ready.get(0).close();
        pump();
        assertEquals(3, ready.size(), "a stream ended: the waiting request gets one");
        assertEquals(2, pool.streams());
        assertEquals(List.of(), failed);
    }

    @Test
    void aFullConnectionOpensAnotherUpToTheLimit() {
        StreamPool pool = pool(1, 2);
        pool.acquire(waiter);
        pump();
        pool.acquire(waiter);
        pump();
        assertEquals(2, ready.size());
        assertEquals(2, connections.size(), "one stream per connection: a second connection");
        pool.acquire(waiter);
        pump();
        assertEquals(2, ready.size(), "both full and at the limit: it waits");
    }

    @Test
    void aGoAwayDrainsTheConnectionAndTheNextRequestOpensAnother() {
        StreamPool pool = pool(100, 4);
        pool.acquire(waiter);
        pump();
        assertEquals(1, ready.size());
        nodes.get(0).writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR));
        pump();
        assertTrue(connections.get(0).isActive(), "a stream is still open on it");
        pool.acquire(waiter);
        pump();
        assertEquals(2, connections.size(), "no new stream on a drained connection");
        assertEquals(2, ready.size());
        ready.get(0).close();
        pump();
        assertFalse(connections.get(0).isActive(), "drained and empty: closed");
    }

    @Test
    void aConnectionClosedBeforeItsSettingsFailsItsWaiters() {
        StreamPool pool = pool(100, 4);
        pool.acquire(waiter);
        pool.acquire(waiter);
        connections.get(0).close();
        assertEquals(2, failed.size(), "both fail, so that their acquisitions try another node");
        assertEquals(0, pool.connections());
    }

    @Test
    void aStreamCameForNobodyIsClosedOnRelease() {
        StreamPool pool = pool(100, 4);
        pool.acquire(waiter);
        pump();
        Channel stream = ready.get(0);
        pool.release(stream);
        assertFalse(stream.isActive());
        pump();
        assertEquals(0, pool.streams());
        assertTrue(connections.get(0).isActive(), "the connection serves on");
        pool.acquire(waiter);
        pump();
        assertEquals(2, ready.size());
        assertEquals(1, connections.size(), "the same connection");
    }
}
