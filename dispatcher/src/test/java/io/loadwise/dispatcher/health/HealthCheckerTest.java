package io.loadwise.dispatcher.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loadwise.dispatcher.cluster.HealthReport;
import io.loadwise.dispatcher.cluster.HealthState;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.SlowStart;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.HealthCheckConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Active health checks against real HTTP and TCP nodes on loopback, on a fast schedule. */
class HealthCheckerTest {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicInteger status = new AtomicInteger(200);
    private final AtomicInteger checks = new AtomicInteger();
    /** Checks answered with a 5xx: counted as answered, so a check in flight when the status changes counts right. */
    private final AtomicInteger failedChecks = new AtomicInteger();
    private HttpServer node;
    private HealthChecker checker;

    @BeforeEach
    void startNode() throws Exception {
        node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/health", exchange -> {
            checks.incrementAndGet();
            assertEquals("loadwise-health-check", exchange.getRequestHeaders().getFirst("User-Agent"));
            int answer = status.get();
            if (answer >= 500) {
                failedChecks.incrementAndGet();
            }
            exchange.sendResponseHeaders(answer, -1);
            exchange.close();
        });
        node.start();
    }

    @AfterEach
    void stop() {
        if (checker != null) {
            checker.close();
        }
        scheduler.shutdownNow();
        node.stop(0);
    }

    private String nodeAddress() {
        return "127.0.0.1:" + node.getAddress().getPort();
    }

    private VirtualCluster cluster(HealthCheckConfig check, NodeConfig... nodes) {
        ClusterConfig config = ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").healthCheck(check).nodes(List.of(nodes))
                .panicThresholdPercent(0) // a down node still accepts connections: panic would pick it (issue 32)
                .build();
        return new VirtualCluster(config, PolicyRegistry.load(), System::nanoTime);
    }

    @Test
    void aNodeAnswering500GoesDownAfterFallChecksAndComesBackAfterRise() {
        // a timeout long enough that a busy machine's slow check never counts as one of the 500s
        VirtualCluster cluster = cluster(new HealthCheckConfig("/health", 100, 100, 2, 3, "200-399"),
                new NodeConfig("a", nodeAddress(), null, null, null, null));
        cluster.setSlowStart(new SlowStart(cluster, 60_000, System::nanoTime));
        NodeState a = cluster.node("a");
        checker = new HealthChecker(cluster, http, scheduler, System::currentTimeMillis);
        assertTrue(checker.active());
        checker.start();
        Await.until("node a up", () -> a.health().state() == HealthState.UP);
        assertTrue(a.usable());

        status.set(500);
        Await.until("node a down", () -> a.health().state() == HealthState.DOWN);
        assertTrue(failedChecks.get() >= 3, "fall is 3: at least 3 checks saw the 500s, not " + failedChecks.get());
        assertFalse(a.usable(), "a down node leaves selection");
        assertNull(cluster.pick(null), "the only node is down");
        HealthReport.CheckResult last = a.health().lastCheck();
        assertEquals(500, last.status());
        assertEquals("status 500 not in 200-399", last.problem());

        status.set(204);
        Await.until("node a up again", () -> a.health().state() == HealthState.UP);
        assertTrue(a.usable());
        assertTrue(cluster.slowStart().factor(a) < 1, "a node that comes back up ramps up (slow start)");
        assertTrue(a.health().lastCheck().ok());
    }

    @Test
    void aNodeHeldOutUntilReadyIsReadmittedByAPassingCheck() {
        // Issue 32: in a cluster with a health check, the check says when a node that connect failures took out
        // serves again; the connect alone, or the end of unhealthyRetryMs, does not.
        VirtualCluster cluster = cluster(new HealthCheckConfig("/health", 100, 100, 1, 1, "200-399"),
                new NodeConfig("a", nodeAddress(), null, null, null, null));
        NodeState a = cluster.node("a");
        status.set(503); // the container is up, the application deploys
        checker = new HealthChecker(cluster, http, scheduler, System::currentTimeMillis);
        checker.start();
        Await.until("node a down", () -> a.health().state() == HealthState.DOWN);
        a.setReadinessGated(true); // as the node monitor does for a cluster with a health check
        a.markConnectFailure(1); // the proxy's connect failed; its retry interval is over at once
        int seen = checks.get();
        Await.until("two more checks", () -> checks.get() >= seen + 2);
        assertTrue(a.awaitingReadiness(), "failing checks readmit nothing");
        assertFalse(a.usable());

        status.set(200);
        Await.until("node a ready", () -> !a.awaitingReadiness());
        Await.until("node a usable", a::usable);
    }

    @Test
    void aNodeOverrideChecksAnotherPathAndANodeWithoutChecksStaysUnchecked() throws Exception {
        node.createContext("/ready", exchange -> {
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        VirtualCluster cluster = cluster(null,
                new NodeConfig("a", nodeAddress(), null, null, null, null,
                        new HealthCheckConfig("/ready", 40, 30, 1, 1, null)),
                new NodeConfig("b", nodeAddress(), null, null, null, null));
        checker = new HealthChecker(cluster, http, scheduler, System::currentTimeMillis);
        checker.start();
        Await.until("node a down", () -> cluster.node("a").health().state() == HealthState.DOWN);
        assertFalse(cluster.node("b").health().checked());
        assertTrue(cluster.node("b").usable());
        assertEquals("b", cluster.pick(null).name(), "the checked-down node is never picked");
    }

    @Test
    void withoutAPathTheCheckIsATcpConnect() throws Exception {
        VirtualCluster cluster = cluster(new HealthCheckConfig(null, 40, 30, 1, 2, null),
                new NodeConfig("live", nodeAddress(), null, null, null, null),
                new NodeConfig("dead", Configs.deadAddress(), null, null, null, null));
        checker = new HealthChecker(cluster, http, scheduler, System::currentTimeMillis);
        checker.start();
        Await.until("dead node down", () -> cluster.node("dead").health().state() == HealthState.DOWN);
        Await.until("live node up", () -> cluster.node("live").health().state() == HealthState.UP);
        assertEquals(0, checks.get(), "a TCP check sends no request");
        assertEquals("connection refused", cluster.node("dead").health().lastCheck().problem());
        assertEquals(0, cluster.node("live").counters().read().selections(), "checks are no client traffic");
    }

    @Test
    void aNodeThatDoesNotAnswerInTimeFailsItsCheck() throws Exception {
        node.createContext("/slow", exchange -> {
            try {
                Thread.sleep(500); // the node is slow: longer than the check's timeout
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        VirtualCluster cluster = cluster(new HealthCheckConfig("/slow", 200, 50, 1, 1, null),
                new NodeConfig("a", nodeAddress(), null, null, null, null));
        checker = new HealthChecker(cluster, http, scheduler, System::currentTimeMillis);
        checker.start();
        Await.until("slow node down", () -> cluster.node("a").health().state() == HealthState.DOWN);
        HealthReport.CheckResult last = cluster.node("a").health().lastCheck();
        assertEquals("no answer within 50 ms", last.problem());
        assertTrue(last.durationMillis() < 400, "the check gave up at its timeout: " + last.durationMillis());
    }
}
