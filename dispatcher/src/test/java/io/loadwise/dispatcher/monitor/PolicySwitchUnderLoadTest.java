package io.loadwise.dispatcher.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.monitor.AppNode.Agent;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11, item 4: live policy switches through all ten policies, twice, under a steady client load,
 * over nodes without agents. Each agent-driven policy stays in force for several agent polls after the
 * samples would have expired, which is when the dispatcher used to take every node out.
 */
class PolicySwitchUnderLoadTest {

    /** The sixteen built-in policies (the test class path adds test policies to the registry). */
    private static final List<String> POLICIES = List.of("random", "round-robin", "static-wrr", "least-connections",
            "weighted-least-connections", "least-sessions", "least-loaded", "fastest-response-time",
            "f5-dynamic-ratio", "jvm-aware", "jvm-aware-classic", "adaptive", "probed-response-time", "rr-to-lc",
            "p2c-least-request", "orca-wrr");
    private static final int CLIENTS = 4;
    private static final int REQUESTS_PER_POLICY = 100;
    private static final int POLLS_PER_AGENT_POLICY = 3;

    @TempDir
    Path dir;

    @Test
    void cyclingThroughEveryPolicyUnderLoadFailsNoRequest() throws Exception {
        List<AppNode> nodes = List.of(new AppNode("a", Agent.NONE), new AppNode("b", Agent.NONE),
                new AppNode("c", Agent.GARBAGE));
        PolicyRegistry registry = PolicyRegistry.load();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong completed = new AtomicLong();
        Failures failures = new Failures();
        try (ShortTimingDispatcher proxy = new ShortTimingDispatcher(dir, "round-robin", nodes)) {
            List<Future<?>> load = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                load.add(clients.submit(() -> steadyClient(proxy, running, completed, failures)));
            }
            for (int round = 0; round < 2; round++) {
                for (String policy : POLICIES) {
                    proxy.switchPolicy(policy);
                    long requestsBefore = completed.get() + failures.count();
                    long[] pollsBefore = polls(proxy);
                    boolean agentDriven = registry.get(policy).inputs().contains(PolicyInput.AGENT_METRICS);
                    Await.until(policy + " in force for " + REQUESTS_PER_POLICY + " requests"
                            + (agentDriven ? " and " + POLLS_PER_AGENT_POLICY + " polls of every agent" : ""),
                            Duration.ofSeconds(20), () -> completed.get() + failures.count() - requestsBefore >= REQUESTS_PER_POLICY
                                    && (!agentDriven || polledAgain(proxy, pollsBefore)));
                }
                if (round == 0) {
                    // From here on every agent has been silent for longer than the sample expiry.
                    proxy.awaitReportedSilent("a", "b", "c");
                }
            }
            running.set(false);
            for (Future<?> client : load) {
                client.get();
            }
            assertEquals(0, failures.count(), failures.count() + " of " + (completed.get() + failures.count())
                    + " requests failed, the first: " + failures.first());
        } finally {
            running.set(false);
            clients.shutdownNow();
            nodes.forEach(AppNode::close);
        }
        for (AppNode node : nodes) {
            assertTrue(node.appRequests() > 0, "node " + node.name + " served nothing");
        }
        assertTrue(completed.get() >= 20L * REQUESTS_PER_POLICY, "completed " + completed.get());
    }

    private static long[] polls(ShortTimingDispatcher proxy) {
        long[] polls = new long[3];
        String[] names = {"a", "b", "c"};
        for (int i = 0; i < names.length; i++) {
            AgentStats stats = proxy.stats(names[i]);
            polls[i] = stats.pollsOk() + stats.pollsFailed();
        }
        return polls;
    }

    private static boolean polledAgain(ShortTimingDispatcher proxy, long[] before) {
        long[] now = polls(proxy);
        for (int i = 0; i < now.length; i++) {
            if (now[i] - before[i] < POLLS_PER_AGENT_POLICY) {
                return false;
            }
        }
        return true;
    }

    /** Counts failed requests and keeps the first few descriptions. */
    private static final class Failures {
        private static final int KEPT = 5;
        private final AtomicLong count = new AtomicLong();
        private final List<String> first = Collections.synchronizedList(new ArrayList<>());

        void add(String failure) {
            if (count.incrementAndGet() <= KEPT) {
                first.add(failure);
            }
        }

        long count() {
            return count.get();
        }

        List<String> first() {
            return List.copyOf(first);
        }
    }

    /** One keep-alive client sending requests back to back until told to stop; records every failure. */
    private static void steadyClient(ShortTimingDispatcher proxy, AtomicBoolean running, AtomicLong completed,
            Failures failures) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(proxy.uri()).timeout(Duration.ofSeconds(10)).build();
        while (running.get()) {
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    completed.incrementAndGet();
                } else {
                    failures.add("HTTP " + response.statusCode() + " under " + proxy.cluster().policy().id());
                }
            } catch (IOException e) {
                failures.add(e + " under " + proxy.cluster().policy().id());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
