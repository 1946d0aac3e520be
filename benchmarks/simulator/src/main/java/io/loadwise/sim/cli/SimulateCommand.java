package io.loadwise.sim.cli;

import io.loadwise.cli.HelpOption;
import io.loadwise.cli.UsageException;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.sim.agent.AgentSettings;
import io.loadwise.sim.dispatch.ChooserFactory;
import io.loadwise.sim.dispatch.OracleLeastWorkLeft;
import io.loadwise.sim.engine.ClusterModel;
import io.loadwise.sim.engine.RunObserver;
import io.loadwise.sim.engine.Simulation;
import io.loadwise.sim.grid.GridAxes;
import io.loadwise.sim.grid.GridResult;
import io.loadwise.sim.grid.RobustnessGrid;
import io.loadwise.sim.report.RateSweepReport;
import io.loadwise.sim.service.ServiceTimeModel;
import io.loadwise.sim.service.ServiceTimeModels;
import io.loadwise.sim.trace.SelectionTrace;
import io.loadwise.sim.workload.Trace;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loadwise simulate}: replays a workload through the real policies and the oracle baseline. */
@Command(name = "simulate", customSynopsis = "loadwise simulate [options]",
        description = {"Discrete-event simulation of a cluster of FCFS nodes behind the dispatcher.",
            "Every request is placed by the real policy classes through the policy SPI (dynamic ones fed by simulated, optionally delayed and "
            + "noisy agent samples) and by the oracle least-work-left baseline; results are given absolute and as a "
            + "ratio to the oracle."},
        footer = {"Example (seed 004 Table 5 shape):",
            "  loadwise simulate --workload surge --requests 400000 --nodes 4 --service teo-ayani \\",
            "      --rate 250,500,750,1000 --policy round-robin,least-connections --out results/",
            "Example (seed 002, response scheduling on a 10 Mbit/s link):",
            "  loadwise simulate --scheduling ps,srpt,srrt --workload surge --link-load 0.5,0.7,0.9",
            "",
            "Example (seed 001's capacity scenarios against a measured sweep, docs/simulator.md):",
            "  loadwise simulate --scenario all --compare benchmarks/results/2026-11-22-sweep --seeds 10",
            "",
            "Exit codes: 0 ok, 1 I/O error, 2 bad options."})
public final class SimulateCommand implements CommandRun.Body {

    @Mixin
    WorkloadOptions workload;

    @Mixin
    ClusterOptions cluster;

    @Mixin
    SchedulingOptions scheduling;

    @Mixin
    ScenarioOptions scenarios;

    @Option(names = "--list-policies", description = "list the policies found on the class path and exit")
    boolean listPolicies;

    @Option(names = "--service", paramLabel = "MODEL", description = {ServiceTimeModels.SYNTAX,
        "(default exponential); bounded-pareto = heavy-tailed, tail index ALPHA, largest/smallest = MAX_OVER_MIN,",
        "mean from --service-ms; teo-ayani = seed 004's L/K + C with its measured static/dynamic K and C"})
    String service = "exponential";

    @Option(names = "--service-ms", paramLabel = "MS",
            description = "mean service time at speed 1 for exponential/deterministic/bounded-pareto (default 10)")
    Double serviceMs;

    @Option(names = "--service-rate", paramLabel = "MU", description = "the same given as a rate, requests/s per node at speed 1")
    Double serviceRate;

    @Option(names = "--agent-period-ms", paramLabel = "MS",
            description = "simulated agents sample every MS of virtual time; 0 = off (default 1000)")
    long agentPeriodMs = 1000;

    @Option(names = "--agent-delay-ms", paramLabel = "MS",
            description = "a sample reaches the dispatcher MS after it was taken (default 0; --scenario: 5, the poll)")
    Long agentDelayMs;

    @Option(names = "--agent-noise", paramLabel = "F",
            description = "relative standard deviation of Gaussian noise on every metric (default 0)")
    double agentNoise;

    @Option(names = "--agent-expiry-ms", paramLabel = "MS", description = "samples older than MS read as missing (default 3000)")
    long agentExpiryMs = 3000;

    @Option(names = "--warmup", paramLabel = "N", description = "leave the first N requests out of the statistics (default 0)")
    int warmup;

    @Option(names = "--seed", paramLabel = "S", description = "seed of every random draw; same seed, same results (default 1)")
    long seed = 1;

    @Option(names = "--out", paramLabel = "DIR", description = "also write results.csv and PNG plots into DIR")
    Path outDir;

    @Option(names = "--grid", paramLabel = "full|quick", description = {
        "run the robustness grid instead (agent noise x delay x speeds x load x service, 3 seeds a cell;",
        "quick: a few cells): a table of each agent-driven policy against the best agent-blind one,",
        "and with --out grid.csv, grid.md and a heat map per agent-driven policy (docs/simulator.md)"})
    String grid;

    @Option(names = "--grid-seeds", paramLabel = "N", description = {
        "with --grid: runs per cell, seeds 1..N (default: the grid's, 3 for full and 2 for quick); more seeds",
        "narrow the 95 %% intervals where heavy-tailed service makes single runs vary"})
    Integer gridSeeds;

    @Option(names = "--trace", paramLabel = "DIR", description = {
        "also write each run's per-second placements and agent readings to DIR/selections-POLICY-RATE.csv",
        "and print herds, starved nodes and the readings before them (docs/simulator.md)"})
    Path traceDir;

    @Mixin
    HelpOption help;

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(run(args, System.out, System.err));
    }

    /** {@code loadwise simulate ARGS}; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return Main.run(Stream.concat(Stream.of("simulate"), Stream.of(args)).toArray(String[]::new), out, err);
    }

    @Override
    public int call(PrintStream out) throws IOException {
        PolicyRegistry registry = PolicyRegistry.load();
        if (listPolicies) {
            for (LoadBalancingPolicy p : registry.all().values()) {
                out.printf("%-28s %s%s%n", p.id(), p.description(),
                        p.inputs().contains(PolicyInput.AGENT_METRICS) ? " [agent metrics]" : "");
            }
            out.printf("%-28s %s%n", OracleLeastWorkLeft.NAME, "simulator-only baseline, always run");
            return 0;
        }
        return simulate(registry, out);
    }

    private int simulate(PolicyRegistry registry, PrintStream out) throws IOException {
        if (grid != null) {
            return runGrid(registry, out);
        }
        if (scenarios.enabled()) {
            return scenarios.run(seed, agentPeriodMs, agentDelayMs, agentExpiryMs, outDir, out);
        }
        if (scenarios.compare != null) {
            throw new UsageException("--compare needs --scenario");
        }
        if (scheduling.enabled()) {
            workload.check(false);
            return scheduling.run(workload, seed, warmup, out);
        }
        workload.check();
        ServiceTimeModel service = serviceModel();
        ClusterModel cluster = this.cluster.cluster();
        List<ChooserFactory> choosers = this.cluster.choosers(registry);
        AgentSettings agents = new AgentSettings(agentPeriodMs, agentDelayMs == null ? 0 : agentDelayMs, agentNoise, agentExpiryMs);
        Simulation simulation = new Simulation(cluster, agents, warmup, seed + 2);

        Trace base = workload.baseTrace(seed, out);
        double[] demands = service.demands(base, new SplittableRandom(seed + 1));
        double meanDemand = mean(demands);
        double capacity = 0;
        for (double s : cluster.speeds()) {
            capacity += s;
        }
        double[] burst = base.burstiness(100);
        out.printf(Locale.ROOT, "workload: %s, %d requests, mean size %.0f B, %.1f %% dynamic, burstiness <a, b> = "
                + "<%.2f, %.2f> over 100 epochs%n", base.description(), base.size(), base.meanSizeBytes(),
                100 * base.dynamicFraction(), burst[0], burst[1]);
        out.printf(Locale.ROOT, "service:  %s; mean demand %.4f ms at speed 1, c_s² = %.3g (capacity --service-scv)%n",
                service.description(), meanDemand * 1e3, scv(demands, meanDemand));
        out.printf(Locale.ROOT, "cluster:  %d nodes, speeds %s, weights %s; agents every %d ms, delay %d ms, noise %.2f%n",
                cluster.size(), java.util.Arrays.toString(cluster.speeds()), java.util.Arrays.toString(cluster.weights()),
                agents.periodMillis(), agents.delayMillis(), agents.noise());

        RateSweepReport report = new RateSweepReport();
        List<String> traces = new ArrayList<>();
        for (Map.Entry<Double, Trace> e : workload.traces(base).entrySet()) {
            Trace trace = e.getValue();
            double rho = trace.meanRatePerSecond() * meanDemand / capacity;
            out.printf(Locale.ROOT, "running %.2f req/s (offered utilisation ρ = %.3f%s)…%n", trace.meanRatePerSecond(),
                    rho, rho >= 1 ? ", overloaded: queues grow for the whole run" : "");
            for (ChooserFactory chooser : choosers) {
                SelectionTrace selections = new SelectionTrace(cluster.size(), SelectionTrace.HEAP_THRESHOLD,
                        SelectionTrace.QUEUE_THRESHOLD);
                report.add(e.getKey(), simulation.run(trace, demands, chooser,
                        traceDir == null ? RunObserver.NONE : selections));
                if (traceDir != null) {
                    String name = String.format(Locale.ROOT, "selections-%s-%.0f.csv", chooser.name(), e.getKey());
                    selections.writeCsv(traceDir.resolve(name));
                    traces.add(String.format(Locale.ROOT, "%-28s %8.1f  %s", chooser.name(), e.getKey(),
                            selections.summary().line()));
                }
            }
        }
        report.printTables(out);
        if (!traces.isEmpty()) {
            out.println();
            out.printf(Locale.ROOT, "Selection traces (%s): heap over %.0f %%, queue over %.0f %%%n", traceDir,
                    SelectionTrace.HEAP_THRESHOLD, SelectionTrace.QUEUE_THRESHOLD);
            out.printf(Locale.ROOT, "%-28s %8s  %s%n", "policy", "req/s", SelectionTrace.Summary.HEADER);
            traces.forEach(out::println);
            out.println(SelectionTrace.Summary.LEGEND);
        }
        if (outDir != null) {
            Path dir = outDir;
            report.writeCsv(dir.resolve("results.csv"));
            List<Path> plots = report.writePlots(dir, String.format(Locale.ROOT, " (%d nodes)", cluster.size()));
            out.println("wrote " + dir.resolve("results.csv") + " and " + plots.size() + " plots in " + dir);
        }
        return 0;
    }

    private int runGrid(PolicyRegistry registry, PrintStream out) throws IOException {
        GridAxes axes = switch (grid) {
            case "full" -> GridAxes.FULL;
            case "quick" -> GridAxes.QUICK;
            default -> throw new UsageException("--grid: expected full or quick, got " + grid);
        };
        if (gridSeeds != null) {
            if (gridSeeds < 2) {
                throw new UsageException("--grid-seeds: at least 2 (an interval needs two runs), got " + gridSeeds);
            }
            axes = axes.withSeeds(gridSeeds);
        }
        RobustnessGrid runner = new RobustnessGrid(registry);
        out.printf(Locale.ROOT, "robustness grid: %d cells x %d seeds x %d requests, policies %s%n", axes.cells().size(),
                axes.seeds(), axes.requests(), String.join(", ", runner.policies()));
        GridResult result = runner.run(axes, out);
        String table = result.markdown();
        out.println();
        out.print(table);
        if (outDir != null) {
            result.writeCsv(outDir.resolve("grid.csv"));
            java.nio.file.Files.writeString(outDir.resolve("grid.md"), table);
            for (String id : RobustnessGrid.AGENT_DRIVEN) {
                if (runner.policies().contains(id)) {
                    result.writeHeatMap(outDir.resolve("grid-" + id + ".png"), id);
                }
            }
            out.println("wrote grid.csv, grid.md and the heat maps in " + outDir);
        }
        return 0;
    }

    private ServiceTimeModel serviceModel() {
        if (serviceMs != null && serviceRate != null) {
            throw new UsageException("give either --service-ms or --service-rate, not both");
        }
        double meanSeconds = serviceRate != null ? 1 / NumberLists.positive("--service-rate", serviceRate)
                : NumberLists.positive("--service-ms", serviceMs != null ? serviceMs : 10) / 1e3;
        return ServiceTimeModels.parse(service, meanSeconds);
    }

    /** Squared coefficient of variation of the drawn demands, Var/mean². */
    private static double scv(double[] values, double mean) {
        double sq = 0;
        for (double v : values) {
            sq += (v - mean) * (v - mean);
        }
        return sq / values.length / (mean * mean);
    }

    private static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }
}
