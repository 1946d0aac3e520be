package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ProxyProtocolConfig;
import io.loadwise.dispatcher.net.ProxyProtocolStats.Refusal;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageEncoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A cluster listening with {@code proxyProtocol}, over real sockets: the header's source is the client the node
 * hears of in {@code X-Forwarded-For} and {@code Forwarded}; a header from an untrusted source closes the
 * connection and is counted.
 */
class ProxyProtocolListenerTest {

    private final TestBackend backend = new TestBackend("a");
    private ProxyFixture proxy;

    @AfterEach
    void tearDown() {
        if (proxy != null) {
            proxy.close();
        }
        backend.close();
    }

    private void start(String accept, List<String> trusted) throws IOException {
        proxy = new ProxyFixture();
        proxy.proxyProtocol = new ProxyProtocolConfig(accept, trusted, 2_000);
        proxy.node("a", backend.address()).start();
    }

    private static byte[] v2Header(String source, int port) {
        EmbeddedChannel enc = new EmbeddedChannel(HAProxyMessageEncoder.INSTANCE);
        enc.writeOutbound(new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY,
                HAProxyProxiedProtocol.TCP4, source, "127.0.0.1", port, 80));
        ByteBuf out = enc.readOutbound();
        byte[] bytes = ByteBufUtil.getBytes(out);
        out.release();
        enc.finishAndReleaseAll();
        return bytes;
    }

    @Test
    void v1HeaderNamesTheClientInForwardingHeaders() throws Exception {
        start("any", List.of("127.0.0.0/8"));
        try (RawHttpClient client = proxy.client()) {
            client.write("PROXY TCP4 203.0.113.7 127.0.0.1 51234 80\r\nGET / HTTP/1.1\r\nHost: shop\r\n\r\n");
            assertEquals(200, client.read(false).status());
            assertEquals(200, client.get("/").status(), "later requests on the connection keep the client");
        }
        HttpHeaders first = backend.received.poll();
        assertEquals("203.0.113.7", first.get("x-forwarded-for"));
        assertEquals("for=203.0.113.7;proto=http;host=shop", first.get("forwarded"));
        assertEquals("203.0.113.7", backend.received.poll().get("x-forwarded-for"));
        assertEquals(1, proxy.server.listener().proxyProtocolStats().acceptedCount());
        proxy.assertSettled();
    }

    @Test
    void v2HeaderSplitFromTheRequestWorks() throws Exception {
        start("v2", List.of("127.0.0.1"));
        try (RawHttpClient client = proxy.client()) {
            byte[] header = v2Header("198.51.100.4", 4000);
            client.write(java.util.Arrays.copyOf(header, 7));
            client.output().flush();
            client.write(java.util.Arrays.copyOfRange(header, 7, header.length));
            client.write("GET / HTTP/1.1\r\nHost: shop\r\n\r\n");
            assertEquals(200, client.read(false).status());
        }
        assertEquals("198.51.100.4", backend.received.poll().get("x-forwarded-for"));
        proxy.assertSettled();
    }

    @Test
    void headerFromAnUntrustedSourceClosesAndIsCountedButPlainClientsAreServed() throws Exception {
        start("any", List.of("10.0.0.0/8"));
        try (RawHttpClient client = proxy.client()) {
            client.setTimeout(5_000);
            client.write("PROXY TCP4 203.0.113.7 127.0.0.1 51234 80\r\nGET / HTTP/1.1\r\nHost: shop\r\n\r\n");
            assertEquals(-1, client.input().read(), "closed without an answer");
        }
        try (RawHttpClient client = proxy.client()) {
            assertEquals(200, client.get("/").status());
        }
        assertEquals("127.0.0.1", backend.received.poll().get("x-forwarded-for"));
        assertTrue(backend.received.isEmpty(), "the spoofed request never reached the node");
        assertEquals(1, proxy.server.listener().proxyProtocolStats().refusedCount(Refusal.UNTRUSTED));
    }

    @Test
    void garbageFromATrustedSourceCloses() throws Exception {
        start("any", List.of("127.0.0.0/8"));
        try (RawHttpClient client = proxy.client()) {
            client.setTimeout(5_000);
            client.write("GET / HTTP/1.1\r\nHost: shop\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals(-1, client.input().read());
        }
        assertTrue(backend.received.isEmpty());
        // the decoder closes the connection before the handler hears of the error: poll, bounded
        long until = System.nanoTime() + 5_000_000_000L;
        while (proxy.server.listener().proxyProtocolStats().refusedCount(Refusal.INVALID) == 0
                && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertEquals(1, proxy.server.listener().proxyProtocolStats().refusedCount(Refusal.INVALID));
    }
}
