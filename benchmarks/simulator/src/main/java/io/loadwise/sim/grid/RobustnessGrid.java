package io.loadwise.sim.grid;

import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.sim.agent.AgentSettings;
import io.loadwise.sim.dispatch.ChooserFactory;
import io.loadwise.sim.dispatch.OracleLeastWorkLeft;
import io.loadwise.sim.dispatch.PolicyChooser;
import io.loadwise.sim.engine.ClusterModel;
import io.loadwise.sim.engine.Simulation;
import io.loadwise.sim.scenario.Interval;
import io.loadwise.sim.service.ServiceTimeModel;
import io.loadwise.sim.service.ServiceTimeModels;
import io.loadwise.sim.stats.RunResult;
import io.loadwise.sim.workload.PoissonWorkload;
import io.loadwise.sim.workload.Trace;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs every policy of the grid in every cell of {@link GridAxes}, seeds 1..n, and keeps each policy's
 * mean and 99th-percentile response time per cell as 95 % intervals over the seeds. Agents sample every
 * second (the simulator's default), samples expire after 3 s, every node has weight 1. Runs are
 * deterministic: a cell's seed fixes its arrivals, demands, noise and the policies' random draws.
 */
public final class RobustnessGrid {

    /** Policies that read the agent: the ones the aim is about. */
    public static final List<String> AGENT_DRIVEN = List.of("adaptive", "jvm-aware", "orca-wrr");
    /** Policies that read no agent and no hand-given capacity: the aim's yardsticks. */
    public static final List<String> AGENT_BLIND = List.of("least-connections", "weighted-least-connections",
            "p2c-least-request", "round-robin");
    /** Mean demand of a request at speed 1. */
    static final double SERVICE_SECONDS = 0.010;
    /** Response size of the Poisson requests: no policy here reads it. */
    private static final long SIZE_BYTES = 13_564;

    private final PolicyRegistry registry;

    public RobustnessGrid(PolicyRegistry registry) {
        this.registry = registry;
    }

    /** The grid's policies found in the registry, agent-driven first, then the yardsticks, then the oracle. */
    public List<String> policies() {
        List<String> ids = new ArrayList<>();
        for (String id : AGENT_DRIVEN) {
            if (registry.contains(id)) {
                ids.add(id);
            }
        }
        for (String id : AGENT_BLIND) {
            if (registry.contains(id)) {
                ids.add(id);
            }
        }
        ids.add(OracleLeastWorkLeft.NAME);
        return ids;
    }

    /** One policy's outcome in one cell. */
    public record Outcome(String policy, Interval meanMillis, Interval p99Millis, long rejected, List<Double> seedMeans) {

        /**
         * The 95 % interval of this policy's mean response time less {@code other}'s, seed by seed: the runs
         * of one seed share their arrivals and demands (common random numbers), so the paired difference
         * is far tighter than the two intervals side by side.
         */
        public Interval pairedDifference(Outcome other) {
            List<Double> d = new ArrayList<>();
            for (int i = 0; i < seedMeans.size(); i++) {
                d.add(seedMeans.get(i) - other.seedMeans.get(i));
            }
            return Interval.of(d);
        }
    }

    /** Runs the whole grid; prints a line of progress every tenth of the cells. */
    public GridResult run(GridAxes axes, PrintStream progress) {
        List<GridCell> cells = axes.cells();
        List<String> policies = policies();
        AtomicInteger done = new AtomicInteger();
        long started = System.nanoTime();
        List<Map<String, Outcome>> outcomes = cells.parallelStream().map(cell -> {
            Map<String, Outcome> result = runCell(cell, axes, policies);
            int n = done.incrementAndGet();
            if (n * 10 / cells.size() != (n - 1) * 10 / cells.size() || n == cells.size()) {
                progress.printf(Locale.ROOT, "grid: %d of %d cells (%.0f s)%n", n, cells.size(),
                        (System.nanoTime() - started) / 1e9);
            }
            return result;
        }).toList();
        Map<GridCell, Map<String, Outcome>> byCell = new LinkedHashMap<>();
        for (int i = 0; i < cells.size(); i++) {
            byCell.put(cells.get(i), outcomes.get(i));
        }
        return new GridResult(axes, policies, byCell);
    }

    private Map<String, Outcome> runCell(GridCell cell, GridAxes axes, List<String> policies) {
        double[] speeds = cell.speeds().speeds();
        double capacity = 0;
        for (double s : speeds) {
            capacity += s;
        }
        ClusterModel cluster = new ClusterModel(speeds, ones(speeds.length));
        ServiceTimeModel service = ServiceTimeModels.parse(cell.service(), SERVICE_SECONDS);
        AgentSettings agents = new AgentSettings(1000, cell.delayMillis(), cell.noise(), 3000);
        double rate = cell.rho() * capacity / SERVICE_SECONDS;
        Map<String, List<Double>> means = new LinkedHashMap<>();
        Map<String, List<Double>> p99s = new LinkedHashMap<>();
        Map<String, Long> rejected = new LinkedHashMap<>();
        for (int seed = 1; seed <= axes.seeds(); seed++) {
            Trace trace = PoissonWorkload.generate(axes.requests(), rate, SIZE_BYTES, seed);
            double[] demands = service.demands(trace, new SplittableRandom(seed + 1));
            Simulation simulation = new Simulation(cluster, agents, 0, seed + 2);
            for (String id : policies) {
                RunResult r = simulation.run(trace, demands, chooser(id));
                means.computeIfAbsent(id, k -> new ArrayList<>()).add(r.meanResponse());
                p99s.computeIfAbsent(id, k -> new ArrayList<>()).add(r.p99Response());
                rejected.merge(id, r.rejected(), Long::sum);
            }
        }
        Map<String, Outcome> result = new LinkedHashMap<>();
        for (String id : policies) {
            result.put(id, new Outcome(id, Interval.of(means.get(id)), Interval.of(p99s.get(id)), rejected.get(id),
                    List.copyOf(means.get(id))));
        }
        return result;
    }

    private ChooserFactory chooser(String id) {
        if (id.equals(OracleLeastWorkLeft.NAME)) {
            return OracleLeastWorkLeft.FACTORY;
        }
        LoadBalancingPolicy policy = registry.get(id);
        return PolicyChooser.factory(policy, PolicyOptions.EMPTY);
    }

    private static int[] ones(int n) {
        int[] w = new int[n];
        java.util.Arrays.fill(w, 1);
        return w;
    }
}
