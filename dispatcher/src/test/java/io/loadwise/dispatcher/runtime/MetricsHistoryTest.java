package io.loadwise.dispatcher.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MetricsHistoryTest {

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final List<VirtualCluster> clusters = new ArrayList<>();

    private VirtualCluster cluster(String name) {
        return new VirtualCluster(Configs.tcp(name, "test-round-robin", Configs.nodes("127.0.0.1:9001", "127.0.0.1:9002")),
                PolicyRegistry.load(), clock::get);
    }

    private void tick(MetricsHistory history) {
        clock.addAndGet(1_000_000_000L);
        history.sample();
    }

    @Test
    void recordsPerSecondDifferencesOfClusterAndNodes() {
        VirtualCluster a = cluster("a");
        clusters.add(a);
        MetricsHistory history = new MetricsHistory(() -> clusters, 3, clock::get);
        history.sample();
        assertEquals(List.of(), history.history("a"), "the first reading only sets the baseline");

        a.counters().requestStarted();
        a.counters().requestCompleted(30_000_000, 20_000_000);
        a.node("n2").counters().bytesOut(2_000_000);
        tick(history);

        MetricsSnapshot s = history.history("a").get(0);
        assertEquals(1.0, s.throughput(), 1e-9);
        assertEquals(30.0, s.latencyMillis(), 1e-9);
        assertEquals(2.0, history.nodeHistory("a", "n2").get(0).trafficOutMBps(), 1e-9);
        assertEquals(0.0, history.nodeHistory("a", "n1").get(0).trafficOutMBps(), 1e-9);
        assertEquals(List.of(), history.nodeHistory("a", "n9"));
        assertEquals(List.of(), history.history("zz"));
    }

    @Test
    void keepsOnlyTheNewestUpToCapacityOldestFirst() {
        VirtualCluster a = cluster("a");
        clusters.add(a);
        MetricsHistory history = new MetricsHistory(() -> clusters, 3, clock::get);
        history.sample();
        for (int i = 1; i <= 5; i++) {
            for (int k = 0; k < i; k++) {
                a.counters().requestStarted();
                a.counters().requestCompleted(1, 1);
            }
            tick(history);
        }
        List<Double> throughputs = new ArrayList<>();
        history.history("a").forEach(s -> throughputs.add(s.throughput()));
        assertEquals(List.of(3.0, 4.0, 5.0), throughputs);
    }

    @Test
    void aRebuiltClusterContinuesItsHistoryFromZeroAndARemovedOneIsForgotten() {
        VirtualCluster a = cluster("a");
        clusters.add(a);
        MetricsHistory history = new MetricsHistory(() -> clusters, 10, clock::get);
        history.sample();
        tick(history);

        VirtualCluster rebuilt = cluster("a");
        rebuilt.counters().connectionOpened();
        rebuilt.counters().connectionOpened();
        clusters.set(0, rebuilt);
        tick(history);
        assertEquals(2, history.history("a").size());
        assertEquals(2, history.history("a").get(1).activeConnections());

        clusters.clear();
        tick(history);
        assertEquals(List.of(), history.history("a"));
    }
}
