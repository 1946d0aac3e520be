package io.loadwise.bench.policy;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyMetric;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Cost of one {@link Picker#pick} for every built-in policy at several cluster sizes, with the
 * production environment (thread-local random, no options). Run with {@code -prof gc} to see the
 * allocation per pick ({@code gc.alloc.rate.norm}), which must be 0.
 *
 * <p>Nodes get seeded pseudo-random weights 1..5, 0..19 active connections, 5..50 ms response times and
 * a full agent sample with loads well below the jvm-aware thresholds, so that each policy does its
 * real work (dynamic policies see distinct loads and some ties, as in a live cluster). The samples also
 * carry ORCA's rps, eps and application utilization, drawn from a second seeded source so that the other
 * policies' clusters stay what they were; orca-wrr is built with no blackout, so its cycle holds the
 * weights those give rather than the round robin of its first 10 s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PolicySelectionBenchmark {

    @Param({"random", "round-robin", "static-wrr", "least-connections", "weighted-least-connections",
        "least-sessions", "least-loaded", "fastest-response-time", "f5-dynamic-ratio", "jvm-aware",
        "jvm-aware-classic", "adaptive", "probed-response-time", "rr-to-lc", "p2c-least-request", "orca-wrr"})
    public String policy;

    @Param({"3", "16", "100", "1000"})
    public int nodes;

    private Picker picker;

    @Setup
    public void buildPicker() {
        SplittableRandom random = new SplittableRandom(2026);
        SplittableRandom orca = new SplittableRandom(2027);
        List<NodeView> cluster = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            cluster.add(new BenchNode(i, 1 + random.nextInt(5), random.nextInt(20), 5 + random.nextInt(46),
                    sample(random, orca)));
        }
        PolicyOptions options = policy.equals("orca-wrr") ? PolicyOptions.of(Map.of("blackoutPeriodMs", 0))
                : PolicyOptions.EMPTY;
        picker = PolicyRegistry.load().get(policy)
                .newPicker(new ClusterSnapshot("bench", cluster), null, PolicyEnvironment.system(options));
    }

    private static AgentSample sample(SplittableRandom random, SplittableRandom orca) {
        Map<String, Double> metrics = new TreeMap<>();
        metrics.put(PolicyMetric.OS_CPU_USED.seedName(), (double) random.nextInt(10, 90));
        metrics.put(PolicyMetric.OS_MEM_USED.seedName(), (double) random.nextInt(20, 80));
        metrics.put(PolicyMetric.OS_CPU_IOWAIT.seedName(), (double) random.nextInt(0, 20));
        metrics.put(PolicyMetric.AMX_CONNS_Q_USED.seedName(), (double) random.nextInt(0, 50));
        metrics.put(PolicyMetric.AMX_CONNS_Q_THRBSY.seedName(), (double) random.nextInt(0, 100));
        metrics.put(PolicyMetric.AMX_JDBC_ACTC.seedName(), (double) random.nextInt(0, 100));
        metrics.put(PolicyMetric.JVM_HEAP_USED.seedName(), (double) random.nextInt(20, 80));
        metrics.put(PolicyMetric.AMX_SESSIONS_ACT.seedName(), (double) random.nextInt(0, 500));
        metrics.put(PolicyMetric.REQUEST_RATE.seedName(), (double) orca.nextInt(50, 500));
        metrics.put(PolicyMetric.ERROR_RATE.seedName(), (double) orca.nextInt(0, 5));
        metrics.put(PolicyMetric.APP_UTILIZATION.seedName(), (double) orca.nextInt(10, 90));
        // a healthy JVM's few per cent: adaptive reads its running share on every pick, so the pick pays for it
        metrics.put(PolicyMetric.GC_TIME.seedName(), (double) random.nextInt(0, 10));
        return new AgentSample(System.currentTimeMillis(), AgentSample.Source.SIMULATED, metrics);
    }

    @Benchmark
    public NodeView pick() {
        return picker.pick(null);
    }
}
