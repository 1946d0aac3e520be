package io.loadwise.sim.cli;

import io.loadwise.cli.UsageException;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.scenario.CapacityScenario;
import io.loadwise.scenario.Vcn3Queue;
import io.loadwise.sim.scenario.AgreementReport;
import io.loadwise.sim.scenario.CalibrationFile;
import io.loadwise.sim.scenario.CellOutcome;
import io.loadwise.sim.scenario.MeasuredSweep;
import io.loadwise.sim.scenario.NodeResources;
import io.loadwise.sim.scenario.SimulatedSweep;
import io.loadwise.sim.scenario.SweepRow;
import io.loadwise.sim.scenario.TestbedSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code simulate --scenario}: the sweep's testbed (closed-loop clients, three nodes with workers, queue, JDBC pool
 * and heap, VCN3 halved per scenario) simulated with the real policies, and with {@code --compare} the agreement
 * of the simulated ranking with a measured sweep's.
 */
final class ScenarioOptions {

    @Option(names = "--scenario", paramLabel = "KEYS|all", description = {"scenario mode: simulate bench sweep's testbed",
        "for baseline, heap, http-threads, jdbc, combined (comma-separated) or all; the trace options above do not apply"})
    String scenario;

    @Option(names = "--compare", paramLabel = "SWEEP_DIR", description = {"with --scenario: a bench sweep results folder;",
        "take its settings (threads, scale, nodes, sessions, TTL), its CPUs and the demand cores / its mean HTTP",
        "throughput, and print the agreement table of the simulated and measured rankings"})
    Path compare;

    @Option(names = "--seeds", paramLabel = "N", description = "with --scenario: runs of every cell, seeds --seed .. --seed + N - 1 (default 10)")
    int seeds = 10;

    @Option(names = "--rows", paramLabel = "ROW[,ROW..]", description = {"with --scenario: sweep rows, http-<policy id> or",
        "tcp-<policy id> (add @2:2:1 for those weights; static-wrr and weighted-least-connections have them) (default:",
        "the seed's twelve rows, http-jvm-aware-classic and http-adaptive)"})
    String rows = SweepRow.DEFAULT_ROWS;

    @Option(names = "--threads", paramLabel = "N", description = "with --scenario: closed-loop clients, a multiple of 10 (default 60, the sweep's)")
    Integer threads;

    @Option(names = "--scale", paramLabel = "X", description = "with --scenario: the sweep's duration scale (default 0.1: 30 s of load)")
    Double scale;

    @Option(names = "--heap-mb", paramLabel = "N", description = "with --scenario: heap of a full node (default 96)")
    Integer heapMb;

    @Option(names = "--node-threads", paramLabel = "N", description = "with --scenario: worker threads of a full node (default 12)")
    Integer nodeThreads;

    @Option(names = "--node-queue", paramLabel = "N", description = "with --scenario: request queue of every node (default 12)")
    Integer nodeQueue;

    @Option(names = "--vcn3-queue", paramLabel = "seed|half", description = {"with --scenario: VCN3's request queue where",
        "its worker threads are halved (http-threads, combined): seed keeps the full queue (seed Table 9; default, or",
        "the calibration's or compared sweep's), half halves it too, a departure from Table 9: the nodes share the",
        "machine's cores, so threads cap only concurrency and with the seed's queue VCN3 holds 6 + 12 = 18 of a full",
        "node's 24 (benchmarks/README.md)"})
    String vcn3Queue;

    @Option(names = "--node-jdbc", paramLabel = "N", description = "with --scenario: JDBC pool of a full node (default 10)")
    Integer nodeJdbc;

    @Option(names = "--session-kb", paramLabel = "N", description = "with --scenario: state per session, KB (default 45 / scale)")
    Integer sessionKb;

    @Option(names = "--session-timeout-s", paramLabel = "N", description = "with --scenario: session idle timeout (default 100 x scale)")
    Integer sessionTimeoutS;

    @Option(names = "--connection-ttl-ms", paramLabel = "N", description = "with --scenario: a client reconnects (a new placement) after N ms (default 1000)")
    Integer connectionTtlMs;

    @Option(names = "--think-ms", paramLabel = "MS", description = "with --scenario: client pause between requests (default 0, the trade plan's)")
    Double thinkMs;

    @Option(names = "--demand-ms", paramLabel = "MS", description = {"with --scenario: mean CPU time per request, exponential",
        "(default 4.00: 2 cores / 499.9 samples/s, 2026-11-22-sweep; with --compare: from that folder)"})
    Double demandMs;

    @Option(names = "--cores", paramLabel = "N", description = "with --scenario: CPUs the nodes share (default 2; with --compare: that sweep's machine)")
    Integer cores;

    @Option(names = "--base-heap", paramLabel = "F", description = "with --scenario: share of a node's heap used without sessions (default 0.30)")
    Double baseHeap;

    @Option(names = {"--jdbc-max-wait-ms", "--jdbc-wait-ms"}, paramLabel = "MS", description = {"with --scenario: longest",
        "wait for a JDBC connection, bench sweep's --jdbc-max-wait-ms (default 10000, or the calibration's or compared",
        "sweep's)"})
    Long jdbcWaitMs;

    @Option(names = "--jdbc-hold-ms", paramLabel = "MS", description = {"with --scenario: a request keeps its JDBC",
        "connection (and worker) this long after its CPU time, off the CPU: bench sweep's --jdbc-hold-ms (default 0,",
        "or the calibration's or compared sweep's)"})
    Long jdbcHoldMs;

    @Option(names = "--failure-ms", paramLabel = "MS", description = "with --scenario: CPU time of a failed exchange (default: the demand)")
    Double failureMs;

    @Option(names = "--agent-fast-ms", paramLabel = "MS", description = {"with --scenario: agents sample the policy metrics",
        "every MS (the agent's default 100; 0: full samples only)"})
    long agentFastMs = TestbedSettings.DEFAULT_AGENT_FAST_MS;

    @Option(names = "--agent-header-ms", paramLabel = "MS", description = {"with --scenario: a response carries the latest",
        "sample at most every MS (endpoint-load-metrics; default 100; -1: never, polls only)"})
    long agentHeaderMs = TestbedSettings.DEFAULT_AGENT_HEADER_MS;

    @Option(names = "--agent-queue-metric", paramLabel = "on|off", description = {"with --scenario: whether the agents",
        "report AMX_CONNS_Q_USED%% (default on; off: as the sweep's Tomcat, whose connector has no shared executor)"})
    String agentQueueMetric;

    @Option(names = "--refresh-ms", paramLabel = "MS", description = {"with --scenario: the dispatcher rebuilds an agent-driven",
        "picker at most every MS after new samples (default 100)"})
    long refreshMs = TestbedSettings.DEFAULT_REFRESH_MS;

    @Option(names = "--calibration", paramLabel = "FILE|none", description = {"with --scenario, without --compare: bench",
        "calibrate's calibration.json for per-scenario settings (default " + CalibrationFile.DEFAULT_PATH + " when it exists)"})
    String calibration;

    boolean enabled() {
        return scenario != null;
    }

    /** Runs the scenario mode; {@code seed}, the agent options and {@code out} are the simulate command's own. */
    int run(long seed, long agentPeriodMs, Long agentDelayMs, long agentExpiryMs, Path out, PrintStream print)
            throws IOException {
        if (seeds < 1) {
            throw new UsageException("--seeds must be at least 1, got " + seeds);
        }
        if (vcn3Queue != null && !List.of("seed", "half").contains(vcn3Queue.toLowerCase(Locale.ROOT))) {
            throw new UsageException("--vcn3-queue: '" + vcn3Queue + "' is neither seed nor half");
        }
        List<CapacityScenario> scenarios = CapacityScenario.parse(scenario);
        List<SweepRow> sweepRows = SweepRow.parseList(rows);
        if (sweepRows.isEmpty()) {
            throw new UsageException("--rows names no row");
        }
        PolicyRegistry registry = PolicyRegistry.load();
        for (SweepRow row : sweepRows) {
            if (!registry.contains(row.policyId())) {
                throw new UsageException("--rows: unknown policy '" + row.policyId() + "' in " + row.key()
                        + " (simulate --list-policies lists them)");
            }
        }
        MeasuredSweep bench = null;
        if (compare != null) {
            if (!Files.isDirectory(compare)) {
                throw new UsageException("--compare: no such folder: " + compare);
            }
            bench = MeasuredSweep.read(compare);
            if (!"per-connection".equals(bench.httpBalance())) {
                print.println("note: " + compare + " balanced HTTP " + bench.httpBalance()
                        + "; the model places per connection");
            }
        }
        TestbedSettings base = TestbedSettings.sweepDefaults(threads != null ? threads : TestbedSettings.SWEEP_THREADS,
                scale != null ? scale : TestbedSettings.SWEEP_SCALE);
        base = model(base, agentPeriodMs, agentDelayMs, agentExpiryMs);
        Map<CapacityScenario, TestbedSettings> settings = new LinkedHashMap<>();
        CalibrationFile calibrated = null;
        String source;
        if (bench != null) {
            TestbedSettings fromSweep = bench.settings(base);
            int c = cores != null ? cores : bench.cores();
            double d = demandMs != null ? demandMs : c * 1000.0 / bench.meanHttpThroughput();
            base = withCoresAndDemand(fromSweep, c, d, failureMs != null ? failureMs : d);
            source = String.format(Locale.ROOT, "settings of %s (sweep.json); demand %.2f ms = %d cores / %.1f samples/s"
                    + " (its mean HTTP throughput)%s", compare, d, c, bench.meanHttpThroughput(),
                    demandMs != null ? " overridden by --demand-ms" : "");
        } else {
            Path file = Path.of(calibration != null ? calibration : CalibrationFile.DEFAULT_PATH);
            if (calibration != null && !calibration.equals("none") && !Files.isRegularFile(file)) {
                throw new UsageException("--calibration: no such file: " + calibration);
            }
            if (!"none".equals(calibration) && Files.isRegularFile(file)) {
                calibrated = CalibrationFile.read(file);
                source = "calibration " + file;
            } else {
                source = "bench sweep's defaults (no calibration.json)";
            }
        }
        for (CapacityScenario s : scenarios) {
            TestbedSettings t = calibrated != null ? calibrated.settings(s, base) : base;
            settings.put(s, overrides(t));
        }
        print.println("scenario mode: " + source);
        settings.forEach((s, t) -> print.println("  " + s.key() + ": " + t.describe()));
        print.printf(Locale.ROOT, "running %d scenarios x %d rows x %d seeds…%n", scenarios.size(), sweepRows.size(), seeds);
        SimulatedSweep sim = SimulatedSweep.run(settings, sweepRows, registry, seed, seeds);
        String md = AgreementReport.markdown(sim, bench);
        print.println();
        print.print(md);
        if (out != null) {
            Files.createDirectories(out);
            Files.writeString(out.resolve("agreement.md"), md);
            writeCsv(sim, out.resolve("simulated-cells.csv"));
            print.println("wrote " + out.resolve("agreement.md") + " and " + out.resolve("simulated-cells.csv"));
        }
        return 0;
    }

    private TestbedSettings model(TestbedSettings b, long agentPeriodMs, Long agentDelayMs, long agentExpiryMs) {
        return new TestbedSettings(b.threads(), b.scale(), b.fullNode(), b.sessionKb(), b.sessionTimeoutS(),
                b.connectionTtlMs(), thinkMs != null ? thinkMs : b.thinkMs(), demandMs != null ? demandMs : b.demandMs(),
                cores != null ? cores : b.cores(), baseHeap != null ? baseHeap : b.baseHeapFraction(),
                jdbcWaitMs != null ? jdbcWaitMs : b.jdbcWaitMs(),
                failureMs != null ? failureMs : demandMs != null ? demandMs : b.failureMs(), agentPeriodMs,
                agentDelayMs != null ? agentDelayMs : TestbedSettings.DEFAULT_AGENT_DELAY_MS, agentExpiryMs,
                agentFastMs, agentHeaderMs, refreshMs, jdbcHoldMs != null ? jdbcHoldMs : b.jdbcHoldMs(), b.vcn3Queue());
    }

    private static TestbedSettings withCoresAndDemand(TestbedSettings b, int cores, double demand, double failure) {
        return new TestbedSettings(b.threads(), b.scale(), b.fullNode(), b.sessionKb(), b.sessionTimeoutS(),
                b.connectionTtlMs(), b.thinkMs(), demand, cores, b.baseHeapFraction(), b.jdbcWaitMs(), failure,
                b.agentPeriodMs(), b.agentDelayMs(), b.agentExpiryMs(), b.agentFastMs(),
                b.agentHeaderMs(), b.refreshMs(), b.jdbcHoldMs(), b.vcn3Queue());
    }

    /** Options given on the command line win over the sweep's or the calibration's. */
    private TestbedSettings overrides(TestbedSettings b) {
        NodeResources n = b.fullNode();
        return new TestbedSettings(threads != null ? threads : b.threads(), scale != null ? scale : b.scale(),
                new NodeResources(heapMb != null ? heapMb : n.heapMb(), nodeThreads != null ? nodeThreads : n.workers(),
                        nodeQueue != null ? nodeQueue : n.queue(), nodeJdbc != null ? nodeJdbc : n.jdbcPool()),
                sessionKb != null ? sessionKb : b.sessionKb(), sessionTimeoutS != null ? sessionTimeoutS : b.sessionTimeoutS(),
                connectionTtlMs != null ? connectionTtlMs : b.connectionTtlMs(), b.thinkMs(), b.demandMs(), b.cores(),
                b.baseHeapFraction(), jdbcWaitMs != null ? jdbcWaitMs : b.jdbcWaitMs(), b.failureMs(), b.agentPeriodMs(),
                b.agentDelayMs(), b.agentExpiryMs(), b.agentFastMs(), b.agentHeaderMs(), b.refreshMs(),
                jdbcHoldMs != null ? jdbcHoldMs : b.jdbcHoldMs(), vcn3Queue != null ? Vcn3Queue.parse(vcn3Queue) : b.vcn3Queue(),
                agentQueueMetric != null ? onOff(agentQueueMetric) : b.agentQueueMetric());
    }

    private static boolean onOff(String value) {
        return switch (value) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException("--agent-queue-metric must be on or off, got " + value);
        };
    }

    private static void writeCsv(SimulatedSweep sim, Path file) throws IOException {
        StringBuilder csv = new StringBuilder("scenario,row,seed,samples,failed,refused,out_of_memory,jdbc_timeouts,no_node,"
                + "throughput,mean_latency_ms,vcn1_sel,vcn2_sel,vcn3_sel,vcn3_peak_heap_pct,vcn3_peak_threads_pct,vcn3_peak_jdbc_pct\n");
        for (CapacityScenario s : sim.scenarios()) {
            for (SimulatedSweep.Cell c : sim.scenario(s).values()) {
                for (CellOutcome r : c.runs()) {
                    csv.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%d,%d,%d,%d,%.2f,%.2f,%d,%d,%d,%s,%s,%s%n",
                            s.key(), r.row().key(), r.seed(), r.samples(), r.failed(), r.refused(), r.outOfMemory(),
                            r.jdbcTimeouts(), r.noNode(), r.throughput(), r.meanLatencyMs(), r.selections()[0],
                            r.selections()[1], r.selections()[2], peak(r.peakHeapPercent()), peak(r.peakThreadsPercent()),
                            peak(r.peakJdbcPercent())));
                }
            }
        }
        Files.writeString(file, csv);
    }

    private static String peak(double[] values) {
        return values == null ? "" : String.format(Locale.ROOT, "%.1f", values[2]);
    }
}
