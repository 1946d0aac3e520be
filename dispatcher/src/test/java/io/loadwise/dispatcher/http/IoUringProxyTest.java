package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loadwise.dispatcher.net.TransportKind;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringServerSocketChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * HTTP exchanges through the proxy on the io_uring transport, over real sockets: the client side accepted and
 * the node side connected by io_uring channels. Skipped only where io_uring cannot run (a kernel without it, a
 * container whose seccomp profile denies it).
 */
class IoUringProxyTest {

    private TestBackend backend;
    private ProxyFixture proxy;

    @BeforeEach
    void onIoUring() {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable here: " + IoUring.unavailabilityCause());
        backend = new TestBackend("a");
    }

    @AfterEach
    void tearDown() {
        if (proxy != null) {
            proxy.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    private void startProxy() throws Exception {
        proxy = new ProxyFixture().node("a", backend.address());
        proxy.transportKind = TransportKind.IO_URING;
        proxy.start();
        assertEquals(IoUringServerSocketChannel.class, proxy.transport.serverChannelClass());
    }

    @Test
    void oneExchangeGoesThroughAndBack() throws Exception {
        startProxy();
        try (RawHttpClient client = proxy.client()) {
            RawHttpClient.Response response = client.get("/");
            assertEquals(200, response.status());
            assertEquals("a", response.header("x-node"));
            assertEquals("a", new String(response.body(), StandardCharsets.UTF_8));
        }
        proxy.assertSettled();
        assertEquals(1, backend.requests());
        assertEquals(1, proxy.cluster.counters().totalRequests());
        assertEquals(0, proxy.cluster.counters().failedRequests());
    }

    @Test
    void aKeptAliveConnectionCarriesRequestsWithBodiesBothWays() throws Exception {
        startProxy();
        String body = "x".repeat(200_000); // larger than one read, so the buffers of several completions
        try (RawHttpClient client = proxy.client()) {
            for (int i = 0; i < 3; i++) {
                client.write("POST /echo-body HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length() + "\r\n\r\n"
                        + body);
                RawHttpClient.Response response = client.read(false);
                assertEquals(200, response.status());
                assertEquals(body, new String(response.body(), StandardCharsets.UTF_8));
            }
        }
        proxy.assertSettled();
        assertEquals(1, backend.accepts(), "one node connection, reused");
    }
}
