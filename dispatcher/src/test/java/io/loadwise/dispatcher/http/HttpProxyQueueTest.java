package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.NodeState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The queue end to end on real sockets (issue 15, item 4): two event loops, two real nodes that take two
 * requests each and answer after 100 ms, and sixteen clients at once. Every client gets its answer; those
 * that found both nodes full waited in the queue (woken across event loops) instead of getting 503.
 */
class HttpProxyQueueTest {

    private ProxyFixture proxy;
    private final List<TestBackend> backends = new ArrayList<>();

    @AfterEach
    void close() {
        if (proxy != null) {
            proxy.close();
        }
        backends.forEach(TestBackend::close);
    }

    private TestBackend backend(String name) {
        TestBackend b = new TestBackend(name);
        b.delayMillis = 100;
        backends.add(b);
        return b;
    }

    @Test
    void clientsBeyondEveryNodesLimitWaitAndAreAllServed() throws Exception {
        TestBackend a = backend("a");
        TestBackend b = backend("b");
        proxy = new ProxyFixture().node("a", a.address()).node("b", b.address());
        proxy.nodeMaxConnections = 2;
        proxy.queueTimeoutMs = 10_000;
        proxy.workerThreads = 2;
        proxy.start();
        int clients = 16;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Integer> statuses = new ArrayList<>();
        List<RawHttpClient> connected = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                RawHttpClient client = proxy.client(); // connected first, so that the requests come together
                connected.add(client);
                answers.add(pool.submit(() -> {
                    go.await();
                    return client.get("/").status();
                }));
            }
            go.countDown();
            for (Future<Integer> f : answers) {
                statuses.add(f.get());
            }
        } finally {
            pool.shutdownNow();
            for (RawHttpClient client : connected) {
                client.close();
            }
        }
        assertEquals(List.of(200), statuses.stream().distinct().toList(), "every client served: " + statuses);
        assertEquals(clients, a.requests() + b.requests());
        var totals = proxy.cluster.counters().read();
        assertTrue(totals.queueWaits() >= clients / 2, "four slots for sixteen requests at once; only "
                + totals.queueWaits() + " waited");
        assertTrue(totals.queueNanos() / totals.queueWaits() >= 50_000_000L, "they waited for a node to answer");
        assertEquals(0, totals.queueLength());
        for (NodeState node : proxy.cluster.nodes()) {
            assertEquals(0, node.admissions(), node.name() + "'s slots all back");
        }
        proxy.assertSettled();
    }
}
