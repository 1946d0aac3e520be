package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.config.NodeConfig;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The per-loop node pool against a real node: reuse, its limit, and stale idle connections. */
class NodePoolTest {

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final EventLoop loop = group.next();
    /** The pool's clock: idle ages pass when the test says so. */
    private final MockTicker ticker = Ticker.newMockTicker();
    private TestBackend backend;

    @BeforeEach
    void setUp() {
        backend = new TestBackend("a");
    }

    @AfterEach
    void tearDown() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        backend.close();
    }

    private NodePool pool(int max, long maxIdleMillis) {
        NodeState node = new NodeState(0, new NodeConfig("a", backend.address(), null, null, null, null), null, 3_000,
                System::nanoTime);
        Bootstrap base = new Bootstrap().group(loop).channel(NioSocketChannel.class);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1",
                Integer.parseInt(backend.address().substring(backend.address().indexOf(':') + 1)));
        return new NodePool(node, NodePool.socketConnector(base, address), ticker, 16 * 1024, max,
                TimeUnit.MILLISECONDS.toNanos(maxIdleMillis));
    }

    private <T> T onLoop(Callable<T> task) throws Exception {
        return loop.submit(task).get(5, TimeUnit.SECONDS);
    }

    private CompletableFuture<Channel> acquire(NodePool pool) throws Exception {
        CompletableFuture<Channel> result = new CompletableFuture<>();
        onLoop(() -> {
            pool.acquire(new NodePool.Waiter() {
                @Override
                public void onBackendReady(Channel backend) {
                    result.complete(backend);
                }

                @Override
                public void onBackendFailed(Throwable cause) {
                    result.completeExceptionally(cause);
                }
            });
            return null;
        });
        return result;
    }

    @Test
    void releasedConnectionIsReused() throws Exception {
        NodePool pool = pool(4, 60_000);
        Channel first = acquire(pool).get(5, TimeUnit.SECONDS);
        onLoop(() -> { pool.release(first); return null; });
        Channel second = acquire(pool).get(5, TimeUnit.SECONDS);
        assertSame(first, second);
        assertEquals(1, (int) onLoop(pool::open));
    }

    @Test
    void aFullPoolMakesRequestsWaitForARelease() throws Exception {
        NodePool pool = pool(1, 60_000);
        Channel first = acquire(pool).get(5, TimeUnit.SECONDS);
        CompletableFuture<Channel> waiting = acquire(pool);
        assertFalse(waiting.isDone(), "no second connection beyond the limit");
        onLoop(() -> { pool.release(first); return null; });
        assertSame(first, waiting.get(5, TimeUnit.SECONDS));
        awaitAccepts(1);
    }

    @Test
    void connectionIdleTooLongIsClosedNotReused() throws Exception {
        NodePool pool = pool(4, 50);
        Channel first = acquire(pool).get(5, TimeUnit.SECONDS);
        onLoop(() -> { pool.release(first); return null; });
        ticker.advance(120, TimeUnit.MILLISECONDS);
        Channel second = acquire(pool).get(5, TimeUnit.SECONDS);
        assertNotSame(first, second);
        assertTrue(first.closeFuture().await(5, TimeUnit.SECONDS), "the stale connection is closed");
        awaitAccepts(2);
        assertEquals(1, (int) onLoop(pool::open), "the closed connection no longer counts");
    }

    /** The node counts an accept on its own event loop, a moment after the connect completed. */
    private void awaitAccepts(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (backend.accepts() < expected && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Thread.sleep(50); // and no more than that arrive
        assertEquals(expected, backend.accepts());
    }
}
