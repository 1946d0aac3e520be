package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loadwise.dispatcher.net.TransportKind;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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

    /**
     * Many client connections and a pool of two node connections on one event loop: several channels of one loop
     * write in the same turn (Netty 4.2.7 failed a misplaced assert there under -ea, netty/netty#16705; 4.2.18 does not).
     */
    @Test
    void concurrentClientsShareThePooledNodeConnections() throws Exception {
        backend.delayMillis = 20;
        proxy = new ProxyFixture().node("a", backend.address());
        proxy.transportKind = TransportKind.IO_URING;
        proxy.maxConnectionsPerNode = 2;
        proxy.start();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<Integer>>> results = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                results.add(clients.submit(() -> {
                    List<Integer> statuses = new ArrayList<>();
                    try (RawHttpClient client = proxy.client()) {
                        for (int i = 0; i < 5; i++) {
                            statuses.add(client.get("/").status());
                        }
                    }
                    return statuses;
                }));
            }
            for (Future<List<Integer>> result : results) {
                assertEquals(List.of(200, 200, 200, 200, 200), result.get());
            }
        } finally {
            clients.shutdownNow();
        }
        proxy.assertSettled();
        assertEquals(40, backend.requests());
        assertEquals(2, backend.accepts(), "the pool's two node connections served every client");
    }
}
