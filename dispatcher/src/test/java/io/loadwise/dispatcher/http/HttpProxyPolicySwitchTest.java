package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A live policy switch under many concurrent keep-alive clients fails no request. */
class HttpProxyPolicySwitchTest {

    private static final int CLIENTS = 200;
    private static final int REQUESTS_EACH = 10;

    @Test
    void switchingPolicyUnderLoadFailsNoRequest() throws Exception {
        List<TestBackend> backends = List.of(new TestBackend("a"), new TestBackend("b"), new TestBackend("c"));
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try (ProxyFixture proxy = new ProxyFixture()) {
            proxy.workerThreads = 2;
            for (TestBackend backend : backends) {
                proxy.node(backend.name(), backend.address(), 1, null);
            }
            proxy.start();
            AtomicInteger done = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<Integer>>> clients = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                clients.add(pool.submit(() -> {
                    List<Integer> statuses = new ArrayList<>();
                    start.await();
                    try (RawHttpClient client = proxy.client()) {
                        for (int j = 0; j < REQUESTS_EACH; j++) {
                            statuses.add(client.get("/").status());
                            done.incrementAndGet();
                        }
                    }
                    return statuses;
                }));
            }
            start.countDown();
            String[] switches = {"least-connections", "static-wrr", "random", "round-robin"};
            int total = CLIENTS * REQUESTS_EACH;
            for (int i = 0; i < switches.length; i++) {
                int threshold = total * (i + 1) / (switches.length + 1);
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (done.get() < threshold && System.nanoTime() < deadline) {
                    Thread.sleep(2);
                }
                assertTrue(done.get() < total, "the switch must happen while requests are running");
                proxy.switchPolicy(switches[i]);
            }
            int ok = 0;
            for (Future<List<Integer>> client : clients) {
                for (int status : client.get()) {
                    assertEquals(200, status);
                    ok++;
                }
            }
            assertEquals(total, ok);
            assertEquals("round-robin", proxy.cluster.policy().id());
            proxy.assertSettled();
            assertEquals(0, proxy.cluster.counters().failedRequests());
            assertEquals(total, proxy.cluster.counters().totalRequests());
            int served = backends.stream().mapToInt(TestBackend::requests).sum();
            assertEquals(total, served);
        } finally {
            pool.shutdownNow();
            backends.forEach(TestBackend::close);
        }
    }
}
