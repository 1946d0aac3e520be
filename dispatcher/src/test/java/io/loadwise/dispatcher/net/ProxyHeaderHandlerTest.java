package io.loadwise.dispatcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.net.ProxyProtocolSettings.Accept;
import io.loadwise.dispatcher.net.ProxyProtocolStats.Refusal;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageEncoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import io.netty.handler.codec.haproxy.HAProxyTLV;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link ProxyHeaderHandler} on an embedded channel whose peer is a chosen address: every outcome, exactly. */
class ProxyHeaderHandlerTest {

    private static final InetSocketAddress BALANCER = new InetSocketAddress("10.0.0.5", 40000);
    private static final InetSocketAddress STRANGER = new InetSocketAddress("192.0.2.9", 50000);

    private final ProxyProtocolStats stats = new ProxyProtocolStats();

    /** An embedded channel with an inet peer, the handler first and a recorder after it. */
    static final class Peer extends EmbeddedChannel {
        final SocketAddress remote;
        final List<Object> seen = new ArrayList<>();
        final List<SocketAddress> clientAtActive = new ArrayList<>();
        boolean activeSeen;
        boolean inactiveSeen;

        Peer(SocketAddress remote) {
            super();
            this.remote = remote;
        }

        @Override
        protected SocketAddress remoteAddress0() {
            return remote;
        }

        Peer with(ProxyHeaderHandler handler) {
            pipeline().addLast(new ChannelInboundHandlerAdapter() {
                @Override
                public void channelActive(ChannelHandlerContext ctx) {
                    activeSeen = true;
                    clientAtActive.add(ClientAddress.of(ctx.channel()));
                }

                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    if (msg instanceof ByteBuf b) {
                        seen.add(b.toString(StandardCharsets.ISO_8859_1));
                        b.release();
                    } else {
                        seen.add(msg);
                    }
                }

                @Override
                public void channelInactive(ChannelHandlerContext ctx) {
                    inactiveSeen = true;
                }
            });
            pipeline().addFirst(handler);
            return this;
        }
    }

    private Peer peer(SocketAddress remote, Accept accept) {
        ProxyProtocolSettings settings = new ProxyProtocolSettings(accept,
                AddressBlock.parseAll(List.of("10.0.0.0/8", "fd00::/8")), 200, 64);
        return new Peer(remote).with(new ProxyHeaderHandler("edge", settings, stats, ProxyHeaderHandler.newThrottle()));
    }

    private static ByteBuf ascii(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    static ByteBuf encode(HAProxyMessage message) {
        EmbeddedChannel enc = new EmbeddedChannel(HAProxyMessageEncoder.INSTANCE);
        assertTrue(enc.writeOutbound(message));
        ByteBuf out = enc.readOutbound();
        enc.finishAndReleaseAll();
        return out;
    }

    static ByteBuf v2(String src, int port, List<HAProxyTLV> tlvs) {
        HAProxyProxiedProtocol family = src.contains(":") ? HAProxyProxiedProtocol.TCP6 : HAProxyProxiedProtocol.TCP4;
        String dst = src.contains(":") ? "fd00::1" : "10.1.1.1";
        return encode(new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY, family, src, dst, port,
                443, tlvs));
    }

    @Test
    void v1FromTrustedSourceBecomesTheClientAndBytesAfterItPassInTheSameRead() {
        Peer ch = peer(BALANCER, Accept.ANY);
        assertFalse(ch.activeSeen, "channelActive is held until the header");
        ch.writeInbound(ascii("PROXY TCP4 203.0.113.7 10.1.1.1 51234 443\r\nGET / HTTP/1.1\r\n"));
        assertTrue(ch.activeSeen);
        assertEquals(List.of(new InetSocketAddress("203.0.113.7", 51234)), ch.clientAtActive);
        assertEquals(List.of("GET / HTTP/1.1\r\n"), ch.seen);
        assertEquals(new InetSocketAddress("203.0.113.7", 51234), ClientAddress.of(ch));
        assertNull(ch.pipeline().get(ProxyHeaderHandler.class), "removed after the header");
        assertEquals(1, stats.acceptedCount());
        assertTrue(ch.isOpen());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void v2SplitOverManyReadsWithTlvs() {
        Peer ch = peer(BALANCER, Accept.V2);
        ByteBuf header = v2("2001:db8::7", 6000, List.of(new HAProxyTLV((byte) 0xE0, ascii("abcdefgh"))));
        while (header.isReadable()) {
            assertFalse(ch.activeSeen);
            ch.writeInbound(header.readRetainedSlice(Math.min(3, header.readableBytes())));
        }
        header.release();
        ch.writeInbound(ascii("hello"));
        assertTrue(ch.activeSeen);
        assertEquals(new InetSocketAddress("2001:db8::7", 6000), ClientAddress.of(ch));
        assertEquals(List.of("hello"), ch.seen);
        ch.finishAndReleaseAll();
    }

    @Test
    void v1UnknownAndV2LocalKeepThePeer() {
        Peer v1 = peer(BALANCER, Accept.ANY);
        v1.writeInbound(ascii("PROXY UNKNOWN\r\nx"));
        assertTrue(v1.activeSeen);
        assertEquals(BALANCER, ClientAddress.of(v1));
        assertEquals(List.of("x"), v1.seen);
        v1.finishAndReleaseAll();

        Peer v2 = peer(BALANCER, Accept.ANY);
        v2.writeInbound(encode(new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.LOCAL,
                HAProxyProxiedProtocol.UNKNOWN, null, null, 0, 0)));
        assertTrue(v2.activeSeen);
        assertEquals(BALANCER, ClientAddress.of(v2));
        assertEquals(2, stats.acceptedCount());
        v2.finishAndReleaseAll();
    }

    @Test
    void garbageFromTrustedSourceIsClosedAndCounted() {
        Peer ch = peer(BALANCER, Accept.ANY);
        ch.writeInbound(ascii("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        assertFalse(ch.isOpen());
        assertFalse(ch.activeSeen);
        assertTrue(ch.seen.isEmpty(), "nothing reached the pipeline");
        assertEquals(1, stats.refusedCount(Refusal.INVALID));
        ch.finishAndReleaseAll();
    }

    @Test
    void wrongVersionIsRefused() {
        Peer ch = peer(BALANCER, Accept.V2);
        ch.writeInbound(ascii("PROXY TCP4 203.0.113.7 10.1.1.1 51234 443\r\n"));
        assertFalse(ch.isOpen());
        assertEquals(1, stats.refusedCount(Refusal.INVALID));
        assertEquals(0, stats.acceptedCount());
        ch.finishAndReleaseAll();

        Peer v1only = peer(BALANCER, Accept.V1);
        v1only.writeInbound(v2("203.0.113.7", 1, List.of()));
        assertFalse(v1only.isOpen());
        assertEquals(2, stats.refusedCount(Refusal.INVALID));
        v1only.finishAndReleaseAll();
    }

    @Test
    void tlvsOverTheCapAreRefused() {
        Peer ch = peer(BALANCER, Accept.ANY);
        ch.writeInbound(v2("203.0.113.7", 1, List.of(new HAProxyTLV((byte) 0xE0, Unpooled.wrappedBuffer(new byte[500])))));
        assertFalse(ch.isOpen());
        assertFalse(ch.activeSeen);
        assertEquals(1, stats.refusedCount(Refusal.INVALID));
        ch.finishAndReleaseAll();
    }

    @Test
    void overlongV1LineIsRefused() {
        Peer ch = peer(BALANCER, Accept.ANY);
        ch.writeInbound(ascii("PROXY TCP4 " + "1".repeat(120)));
        assertFalse(ch.isOpen());
        assertEquals(1, stats.refusedCount(Refusal.INVALID));
        ch.finishAndReleaseAll();
    }

    @Test
    void noHeaderBeforeTheDeadlineIsClosed() throws Exception {
        Peer ch = peer(BALANCER, Accept.ANY);
        ch.writeInbound(ascii("PROXY TCP4 203.0.113.7"));
        assertTrue(ch.isOpen());
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (ch.isOpen() && System.nanoTime() < until) {
            ch.runPendingTasks();
            ch.runScheduledPendingTasks();
            Thread.onSpinWait();
        }
        assertFalse(ch.isOpen());
        assertEquals(1, stats.refusedCount(Refusal.TIMEOUT));
        assertFalse(ch.activeSeen);
        ch.finishAndReleaseAll();
    }

    @Test
    void headerFromUntrustedSourceIsASpoofAndClosed() {
        Peer ch = peer(STRANGER, Accept.ANY);
        assertTrue(ch.activeSeen, "untrusted sources are not held");
        ch.writeInbound(ascii("PRO"));
        assertTrue(ch.isOpen(), "could still be a signature");
        ch.writeInbound(ascii("XY TCP4 1.2.3.4 10.1.1.1 1 2\r\n"));
        assertFalse(ch.isOpen());
        assertTrue(ch.seen.isEmpty());
        assertEquals(1, stats.refusedCount(Refusal.UNTRUSTED));
        assertEquals(STRANGER, ClientAddress.of(ch));
        ch.finishAndReleaseAll();

        Peer v2 = peer(STRANGER, Accept.ANY);
        v2.writeInbound(v2("203.0.113.7", 1, List.of()));
        assertFalse(v2.isOpen());
        assertEquals(2, stats.refusedCount(Refusal.UNTRUSTED));
        v2.finishAndReleaseAll();
    }

    @Test
    void ordinaryTrafficFromUntrustedSourcePassesUntouched() {
        Peer ch = peer(STRANGER, Accept.ANY);
        ch.writeInbound(ascii("G"));
        ch.writeInbound(ascii("ET / HTTP/1.1\r\n"));
        assertEquals(List.of("G", "ET / HTTP/1.1\r\n"), ch.seen, "decided on the first byte, nothing held");
        assertEquals(STRANGER, ClientAddress.of(ch));
        assertNull(ch.pipeline().get(ProxyHeaderHandler.class));
        assertTrue(ch.isOpen());
        assertEquals(0, stats.refusedCount(Refusal.UNTRUSTED));
        ch.finishAndReleaseAll();
    }

    @Test
    void aPrefixOfTheV2SignatureIsHeldThenPassedWhenItDiffers() {
        Peer ch = peer(STRANGER, Accept.ANY);
        ch.writeInbound(ascii("\r\n"));
        assertTrue(ch.seen.isEmpty());
        ch.writeInbound(ascii("\r\nX"));
        assertEquals(List.of("\r\n\r\nX"), ch.seen);
        assertTrue(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void closeBeforeTheHeaderReleasesAndStaysQuiet() {
        Peer ch = peer(BALANCER, Accept.ANY);
        ch.writeInbound(ascii("PROXY TCP4 203"));
        ch.close();
        assertFalse(ch.activeSeen);
        assertFalse(ch.inactiveSeen, "the pipeline never saw the connection start");
        ch.finishAndReleaseAll();
    }
}
