package io.loadwise.bench.policy;

import io.loadwise.policy.NodeView;
import java.util.SplittableRandom;
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
 * Control for {@link PolicySelectionBenchmark}: the cheapest possible least-connections scan (usable
 * check and one counter per node, lowest index wins ties, no avoid handling). The gap between this and
 * the argmin policies is what the shared selector's rank, tie rotation and avoid handling cost; this
 * itself is the floor any full scan pays on the machine at hand.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class NodeScanBaselineBenchmark {

    @Param({"3", "16", "100", "1000"})
    public int nodes;

    private NodeView[] view;

    @Setup
    public void buildNodes() {
        SplittableRandom random = new SplittableRandom(2026);
        view = new NodeView[nodes];
        for (int i = 0; i < nodes; i++) {
            view[i] = new BenchNode(i, 1, random.nextInt(20), 5, null);
        }
    }

    @Benchmark
    public NodeView bareMinScan() {
        NodeView best = null;
        int bestActive = Integer.MAX_VALUE;
        for (NodeView node : view) {
            if (node.usable() && node.activeConnections() < bestActive) {
                best = node;
                bestActive = node.activeConnections();
            }
        }
        return best;
    }
}
