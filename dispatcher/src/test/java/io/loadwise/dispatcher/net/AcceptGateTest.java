package io.loadwise.dispatcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.loadwise.dispatcher.testsupport.Await;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link AcceptGate} on a real NIO listener whose connections get a greeting. NIO accepts everything
 * pending in one read before any handler runs, which is how connections get accepted over a limit.
 */
class AcceptGateTest {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final AtomicInteger rejected = new AtomicInteger();
    private final List<Socket> clients = new ArrayList<>();
    private ConnectionLimit shared;
    private Channel server;

    @BeforeEach
    void start() {
        shared = new ConnectionLimit("dispatcher", 3);
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .handler(AcceptGuard.of("cluster t", 2, shared, rejected::incrementAndGet))
                .childHandler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        ctx.writeAndFlush(Unpooled.copiedBuffer("hi", StandardCharsets.US_ASCII));
                    }

                    @Override
                    public boolean isSharable() {
                        return true;
                    }
                })
                .bind("127.0.0.1", 0).syncUninterruptibly().channel();
    }

    @AfterEach
    void stop() throws IOException {
        server.close().syncUninterruptibly();
        for (Socket s : clients) {
            s.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private Socket connect() throws IOException {
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        Socket s = new Socket(address.getAddress(), address.getPort());
        clients.add(s);
        return s;
    }

    private static String greeting(Socket s, int timeoutMillis) throws IOException {
        s.setSoTimeout(timeoutMillis);
        byte[] buf = new byte[2];
        InputStream in = s.getInputStream();
        int n = 0;
        while (n < 2) {
            int r = in.read(buf, n, 2 - n);
            if (r < 0) {
                return "EOF";
            }
            n += r;
        }
        return new String(buf, StandardCharsets.US_ASCII);
    }

    /** The dispatcher closed {@code s} without a word: end of stream, or a reset. */
    private static boolean closedByServer(Socket s) throws IOException {
        s.setSoTimeout(5_000);
        try {
            return s.getInputStream().read() < 0;
        } catch (SocketException reset) {
            return true;
        }
    }

    @Test
    void stopsAcceptingAtTheLimitClosesWhatWasAcceptedOverItAndResumesWhenOneCloses() throws Exception {
        Socket a = connect();
        Socket b = connect();
        assertEquals("hi", greeting(a, 5_000));
        assertEquals("hi", greeting(b, 5_000));
        assertEquals(2, shared.open());

        Socket c = connect(); // the kernel completes the handshake; the connection waits in the backlog
        Socket d = connect();
        Socket e = connect();
        assertThrows(SocketTimeoutException.class, () -> greeting(c, 300), "c waits while the limit is full");
        assertEquals(0, d.getInputStream().available());
        assertEquals(0, rejected.get(), "the listener stopped accepting instead of accepting and closing");

        a.close();
        // One read accepts c, d and e together: c takes the freed slot, d and e are over the limit.
        assertEquals("hi", greeting(c, 5_000));
        assertEquals(true, closedByServer(d));
        assertEquals(true, closedByServer(e));
        assertEquals(2, rejected.get());
        assertEquals(0, shared.rejectedTotal(), "the listener's own limit refused them, not the shared one");
        Await.until("b and c hold the slots", () -> shared.open() == 2);
    }

    @Test
    void aClosedListenerStopsWatchingTheSharedLimitAndItsConnectionsStillGiveTheirSlotsBack() throws Exception {
        Socket a = connect();
        assertEquals("hi", greeting(a, 5_000));
        assertEquals(1, shared.watcherCount());

        server.close().syncUninterruptibly();
        Await.until("the closed listener let go of the shared limit", () -> shared.watcherCount() == 0);
        assertEquals(1, shared.open(), "its connection is still open");
        a.close();
        Await.until("the connection's slot came back", () -> shared.open() == 0);
    }
}
