package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.http.Exchange.RequestPhase;
import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.loadwise.dispatcher.testsupport.Await;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An idle keep-alive connection holds nothing of its last exchange's request (issue 35): once the response is
 * complete, the decoded request and its headers can be collected, while the connection stays open and serves
 * its next request as before. The requests are watched with weak references; the collector is asked until it
 * clears them (polled with a deadline).
 */
class IdleExchangeReleaseTest {

    private static final String GET = "GET /x HTTP/1.1\r\nHost: h\r\nUser-Agent: t\r\nAccept: */*\r\n\r\n";
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

    private EmbeddedProxy proxy;
    private final List<WeakReference<ProxiedRequest>> seen = new ArrayList<>();

    @AfterEach
    void close() {
        if (proxy != null) {
            proxy.close();
        }
    }

    private void watchRequests() {
        proxy.client.pipeline().addBefore(HttpListener.FRONTEND, "watch", new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof ProxiedRequest request) {
                    seen.add(new WeakReference<>(request));
                }
                ctx.fireChannelRead(msg);
            }
        });
    }

    private void awaitCollected(int index) {
        Await.until("request " + index + " collected", Duration.ofSeconds(20), () -> {
            System.gc();
            return seen.get(index).get() == null;
        });
    }

    @Test
    void anAnsweredRequestIsNotHeldByItsIdleConnection() {
        proxy = new EmbeddedProxy(c -> c.nodes(List.of(new NodeConfig("a", "127.0.0.1:1", null, null, null, null))));
        watchRequests();
        proxy.clientSends(GET);
        assertTrue(proxy.nodeReceived(0).startsWith("GET /x "));
        proxy.nodeSends(0, OK);
        assertTrue(proxy.clientReceived().endsWith("\r\n\r\nok"));
        assertEquals(RequestPhase.IDLE, proxy.frontend.exchangeForTests().requestPhase());
        assertTrue(proxy.client.isActive(), "the connection stays open, idle");

        awaitCollected(0);

        proxy.clientSends(GET.replace("/x", "/y"));
        assertTrue(proxy.nodeReceived(0).startsWith("GET /y "), "the next request goes as before, pooled connection");
        assertEquals(1, proxy.nodeConnections.size());
        proxy.nodeSends(0, OK);
        assertTrue(proxy.clientReceived().endsWith("\r\n\r\nok"));
        awaitCollected(1);
        proxy.assertSettled();
    }

    @Test
    void aRequestAnsweredWithAnErrorIsNotHeldEither() {
        proxy = new EmbeddedProxy(c -> c.nodes(List.of(new NodeConfig("a", "127.0.0.1:1", null, null, null, null))));
        watchRequests();
        proxy.clientSends(GET);
        proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n"); // a head that cannot be relayed: 502
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 502 "));
        assertTrue(proxy.client.isActive(), "a complete request answered 502 keeps its connection");

        awaitCollected(0);
    }
}
