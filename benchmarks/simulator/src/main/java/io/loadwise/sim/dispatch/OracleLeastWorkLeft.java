package io.loadwise.sim.dispatch;

import io.loadwise.sim.engine.SimulatedNode;
import io.loadwise.sim.engine.VirtualClock;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seed 004's "baseline": send each request to the node with the least unfinished work, knowing every
 * request's service demand in advance. Only a simulator can do this, which is why it is not a policy of
 * the SPI. With FCFS nodes a request then waits exactly as long as in one central FCFS queue feeding all
 * nodes, so on Poisson/exponential input it is M/M/c.
 *
 * <p>On nodes of different speeds "least work left" is taken as "earliest completion" (work left plus
 * this request's demand at that node's speed); on equal speeds the two are the same. Ties (several
 * idle nodes) rotate, so that at low load the oracle does not pile work on the first node. It is an oracle, not an optimum: size-based policies can beat it on heavy-tailed loads.
 */
public final class OracleLeastWorkLeft implements NodeChooser {

    public static final String NAME = "oracle-lwl";

    public static final ChooserFactory FACTORY = new ChooserFactory() {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public NodeChooser create(List<SimulatedNode> nodes, VirtualClock clock, SplittableRandom random) {
            return new OracleLeastWorkLeft(nodes.toArray(new SimulatedNode[0]), clock);
        }
    };

    private final SimulatedNode[] nodes;
    private final VirtualClock clock;
    private int rotation;

    private OracleLeastWorkLeft(SimulatedNode[] nodes, VirtualClock clock) {
        this.nodes = nodes;
        this.clock = clock;
    }

    @Override
    public int choose(int request, double demandSeconds) {
        long now = clock.nanoTime();
        int n = nodes.length;
        int start = rotation;
        rotation = rotation + 1 == n ? 0 : rotation + 1;
        int best = start;
        double bestFinish = Double.POSITIVE_INFINITY;
        for (int k = 0; k < n; k++) {
            SimulatedNode node = nodes[(start + k) % n];
            double finish = node.workLeft(now) + demandSeconds * 1e9 / node.speed();
            if (finish < bestFinish) {
                bestFinish = finish;
                best = node.index();
            }
        }
        return best;
    }

    @Override
    public void onAgentSamples() {
        // the oracle needs no reports
    }
}
