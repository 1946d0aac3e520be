package io.loadwise.bench;

import io.loadwise.bench.jmeter.JMeterRun;
import io.loadwise.bench.provision.ClusterProvisioner;
import io.loadwise.bench.provision.GlassFishClusterProvisioner;
import io.loadwise.bench.provision.JdbcTiming;
import io.loadwise.bench.provision.TomcatClusterProvisioner;
import io.loadwise.bench.report.SweepReport;
import io.loadwise.bench.sweep.CellRunner;
import io.loadwise.bench.sweep.PolicyRow;
import io.loadwise.bench.sweep.SweepRunner;
import io.loadwise.bench.sweep.SweepSettings;
import io.loadwise.bench.sweep.Workload;
import io.loadwise.cli.Cli;
import io.loadwise.cli.ExitCode;
import io.loadwise.cli.HelpOption;
import io.loadwise.node.GcPressure;
import io.loadwise.node.NodeCapacity;
import io.loadwise.node.NoisyReadings;
import io.loadwise.node.glassfish.GlassFishInstallation;
import io.loadwise.scenario.CapacityScenario;
import io.loadwise.scenario.Vcn3Queue;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sweep}: every scenario x policy row cell into {@code benchmarks/results/<date>-<name>/}. */
@Command(name = "sweep", customSynopsis = "loadwise bench sweep [options]",
        description = {"Seed 001's evaluation: 5 capacity scenarios x 12 policy rows with real JMeter.",
            "Runs every capacity scenario (Table 7/9) x every policy row (Table 10) --repeats times (default 5), in a"
                + " random order interleaved across scenarios and policies (--seed), one run at a time: fresh database"
                + " and nodes, database reset, dispatcher with the policy, JMeter, collect, stop everything; the load"
                + " average before and after each run is recorded. Results: benchmarks/results/<date>-<name>/ (tables"
                + " of means with 95 %% intervals, a ranking that ties differences inside the noise, runs.csv, plots)."
                + " Settings from 'bench calibrate' are used when recorded (--calibrated). An interrupted sweep resumes"
                + " where it stopped when run again with the same settings."},
        footer = {"Example: loadwise bench sweep --scenarios heap --policies http-round-robin,http-jvm-aware,http-adaptive"
                + " --scale 0.5 --repeats 3 --repeats-reason 'one night of machine time'",
            "Exit codes: 0 every run ran, 1 a run failed (see the tables), 2 usage error."})
public final class SweepCommand implements BenchCommand {

    /**
     * A full node in the default plan: heap, worker threads, request queue and JDBC pool, scaled from the
     * seed's 512 MB / 12 / 12 / 10 by {@code calibrate} (benchmarks/README.md).
     */
    public static final NodeCapacity DEFAULT_FULL_NODE = new NodeCapacity(96, 12, 12, 10);
    /**
     * The trade app's session sizing at the seed's durations (scale 1): 45 KB of state per session, 100 s
     * idle timeout. A node holds about (sessions orphaned per second) x timeout sessions, so the timeout
     * scales with the run and the state with its inverse: VCN3's heap then fills at the same point of the
     * run at any scale. Chosen by {@code calibrate} at scale 0.1 (450 KB, 10 s): VCN3 runs out of heap
     * under round robin, and the 2:2:1 control keeps it below the top (benchmarks/README.md).
     */
    public static final double SESSION_STATE_KB_AT_SCALE_1 = 45;
    public static final double SESSION_TIMEOUT_S_AT_SCALE_1 = 100;
    /** Duration scale of the default sweep: 30 s of load per cell instead of the seed's 300 s, same proportions. */
    public static final double DEFAULT_SCALE = 0.1;
    /**
     * JMeter keep-alive connection lifetime: the seed's Table 10 shows about 1.25 node selections per active
     * connection per second (26.4 selections/s at 21.1 active connections, Table 10 averages), i.e. a new connection, and a new
     * choice of node, about every second per thread.
     */
    public static final int DEFAULT_CONNECTION_TTL_MS = 1000;
    /**
     * JMeter threads of the default sweep. The plan's threads are closed-loop clients without think time, each
     * on one keep-alive connection that the dispatcher places on one node, so a node holds about (threads x its
     * share) requests at once. At 60, round robin puts 20 on each node: beyond VCN3's capacity in the scenarios
     * that halve it (6 workers + 12 queued = 18) while VCN1/VCN2 (12 + 12 = 24) keep room, and the 2:2:1
     * control puts 24 / 24 / 12 on them: every node within its capacity. Above 60 the control overflows VCN1/2
     * (benchmarks/README.md, "Clients").
     */
    public static final int DEFAULT_THREADS = 60;
    /** Seed of the run order when none is given: any fixed number, so that a sweep resumes in its own order. */
    public static final long DEFAULT_SEED = 16;
    /** Where {@code calibrate} writes its chosen settings and {@code sweep} reads them by default. */
    public static final String DEFAULT_CALIBRATION = "benchmarks/results/calibration.json";

    /** Duration scale of {@code --quick}: all 10 threads at once for 5 s, no ramp (a smoke run, not a measurement). */
    public static final double QUICK_SCALE = 0.04;

    @Option(names = "--scenarios", paramLabel = "a,b",
            description = "baseline,heap,http-threads,jdbc,combined (default all; --quick: combined)")
    String scenarios;

    @Option(names = "--policies", paramLabel = "a,b", description = "policy rows, e.g. tcp-random,http-jvm-aware,"
            + "http-adaptive: a seed row or tcp-/http-<any policy id>[@2:2:1], each optionally with policy options"
            + " +name=value, e.g. http-adaptive+gcTimeThreshold=25 (default the seed's 12)")
    String policies;

    @Mixin
    SweepOptions options;

    @Option(names = "--calibrated", paramLabel = "FILE|none", description = "settings chosen by 'bench calibrate'"
            + " (default: " + DEFAULT_CALIBRATION + " when it exists); options given here override them")
    String calibrated;

    @Option(names = "--out", paramLabel = "DIR",
            description = "results folder (default: resume the latest matching one, or a new one)")
    Path resultsDir;

    @Option(names = "--name", paramLabel = "NAME", description = "folder suffix (default sweep, or sweep-quick)")
    String name;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "the cells' working folders (default: benchmarks/runner/target/sweep-work)")
    Path workDir;

    @Mixin
    HelpOption help;

    @Spec
    CommandSpec spec;

    SweepCommand() {
    }

    /**
     * Runs a sweep with {@code args} as {@code bench sweep} would take them, without {@code --help}: for
     * {@code calibrate} and the smoke test. Returns the number of cells with errors.
     *
     * @throws IllegalArgumentException when the arguments do not parse, or ask for what cannot be done
     */
    static int run(List<String> args, PrintStream out) throws IOException, InterruptedException {
        return parse(args).sweep(out);
    }

    /** {@code args} parsed into a sweep, ready to {@link #sweep}; the same errors as {@code bench sweep}. */
    static SweepCommand parse(List<String> args) {
        SweepCommand sweep = new SweepCommand();
        Cli.parse(Cli.configure(new CommandLine(sweep)), args.toArray(String[]::new));
        return sweep;
    }

    @Override
    public int call(PrintStream out) throws IOException, InterruptedException {
        return sweep(out) == 0 ? ExitCode.OK : ExitCode.FAILURE;
    }

    /** Runs the sweep; returns the number of runs with errors. */
    int sweep(PrintStream out) throws IOException, InterruptedException {
        Locations at = options.locations();
        boolean quick = options.quick;
        List<String> scenarioList = list(scenarios != null ? scenarios
                : quick ? "combined" : "baseline,heap,http-threads,jdbc,combined");
        scenarioList = scenarioList.stream().map(k -> CapacityScenario.byKey(k).key()).toList();
        Path calibration = calibrationFile(at.root(), quick);
        SweepOptions o = effectiveOptions(calibration, scenarioList);
        Vcn3Queue.parse(o.vcn3Queue); // before anything is looked up on disk
        new JdbcTiming(o.jdbcHoldMs, o.jdbcMaxWaitMs);
        int repeats = o.repeats != null ? o.repeats : quick ? 1 : SweepSettings.RECOMMENDED_REPEATS;
        if (repeats < 1) {
            throw new IllegalArgumentException("--repeats must be at least 1, got " + repeats);
        }
        String reason = o.repeatsReason == null || o.repeatsReason.isBlank() ? null : o.repeatsReason.trim();
        if (repeats < SweepSettings.RECOMMENDED_REPEATS && reason == null) {
            if (!quick) {
                throw new IllegalArgumentException("--repeats " + repeats + " is below the method's "
                        + SweepSettings.RECOMMENDED_REPEATS + " runs per cell: say why with --repeats-reason TEXT"
                        + " (the results print it)");
            }
            reason = "a --quick smoke run, not a measurement";
        }
        Path agent = "none".equals(o.agentJar) ? null : o.agentJar != null ? Path.of(o.agentJar) : at.agentJar();
        if (agent != null && !Files.isRegularFile(agent)) {
            throw new IllegalArgumentException("agent jar " + agent + " does not exist (build node-agent or pass"
                    + " --agent-jar none)");
        }
        Path plan = o.plan != null ? o.plan : at.root().resolve("benchmarks/jmeter/trade-scenario.jmx");
        if (!Files.isRegularFile(plan)) {
            throw new IllegalArgumentException("JMeter plan " + plan + " does not exist");
        }
        List<String> rows = list(policies != null ? policies : String.join(",", Arrays.stream(PolicyRow.values())
                .map(PolicyRow::key).toList())).stream().map(r -> PolicyRow.parse(r).key()).distinct().toList();
        double scale = o.scale != null ? o.scale : quick ? QUICK_SCALE : DEFAULT_SCALE; // Durations checks its range
        SweepSettings settings = new SweepSettings(name != null ? name : quick ? "sweep-quick" : "sweep", scenarioList,
                rows, scale, o.threads != null ? o.threads : quick ? 10 : DEFAULT_THREADS,
                new NodeCapacity(o.heapMb, o.nodeThreads, o.nodeQueue, o.nodeJdbc), o.vcn3Queue, o.jdbcHoldMs,
                o.jdbcMaxWaitMs,
                o.sessionKb != null ? o.sessionKb : (int) Math.round(SESSION_STATE_KB_AT_SCALE_1 / scale),
                o.sessionTimeoutS != null ? o.sessionTimeoutS
                        : (int) Math.max(1, Math.round(SESSION_TIMEOUT_S_AT_SCALE_1 * scale)),
                o.provisioner, plan.getFileName().toString(), agent != null, o.agentNoise, o.gcPressure, o.httpBalance,
                o.connectionTtlMs, repeats,
                repeats < SweepSettings.RECOMMENDED_REPEATS ? reason : null, o.seed,
                calibration == null ? null : calibration.toString());
        if (settings.connectionTtlMs() < 1) {
            throw new IllegalArgumentException("--connection-ttl-ms must be at least 1, got " + settings.connectionTtlMs());
        }
        if (!List.of("per-connection", "per-request").contains(settings.httpBalance())) {
            throw new IllegalArgumentException("--http-balance: '" + settings.httpBalance()
                    + "' is neither per-connection nor per-request");
        }
        settings.durations(); // validates scale and threads
        settings.scenarioList().forEach(settings.capacity()::capacities); // e.g. a halved heap below the minimum
        Path war = o.war != null ? o.war : at.launcherJar().resolveSibling("loadwise-trade-app.war");
        if (settings.sessionStateKb() < 0) {
            throw new IllegalArgumentException("--session-kb must not be negative, got " + settings.sessionStateKb());
        }
        if (settings.sessionTimeoutSeconds() < 0) {
            throw new IllegalArgumentException("--session-timeout-s must not be negative, got "
                    + settings.sessionTimeoutSeconds());
        }
        ClusterProvisioner provisioner = provisioner(o, at, war, agent, appProperties(settings), settings.jdbc(),
                nodeProperties(settings));
        Workload workload = new Workload(plan, o.path, "none".equals(o.reset) ? null : o.reset,
                settings.durations(), settings.httpBalance().equals("per-request"), settings.connectionTtlMs());
        Path outDir = resultsDir != null ? resultsDir
                : ResultsFolder.choose(at.root().resolve("benchmarks/results"), settings, LocalDate.now(ZoneOffset.UTC));
        Path work = workDir != null ? workDir : at.root().resolve("benchmarks/runner/target/sweep-work");
        CellRunner cells = new CellRunner(provisioner, settings.capacity(), at.dispatcherJar(),
                new JMeterRun(at.jmeterHome()), workload, work);
        return new SweepRunner(settings, cells, outDir, out, new SweepReport(settings, outDir, Environment.describe())).run();
    }

    /**
     * The calibration to use: {@code --calibrated FILE}, none for {@code --calibrated none} or a quick run,
     * otherwise the default file when it exists.
     */
    Path calibrationFile(Path root, boolean quick) {
        if ("none".equals(calibrated)) {
            return null;
        }
        if (calibrated != null) {
            Path file = Path.of(calibrated);
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("--calibrated: " + file + " does not exist (run 'bench calibrate',"
                        + " or pass --calibrated none)");
            }
            return file;
        }
        Path file = root.resolve(DEFAULT_CALIBRATION);
        return !quick && Files.isRegularFile(file) ? file : null;
    }

    /**
     * This command's sweep options with {@code calibration}'s for {@code scenarioKeys} underneath (what the
     * command line gives wins), or as given when there is no calibration.
     */
    SweepOptions effectiveOptions(Path calibration, List<String> scenarioKeys) {
        if (calibration == null) {
            return options;
        }
        List<String> calibrated = Calibration.read(calibration).optionsFor(scenarioKeys, calibration);
        List<String> given = spec == null ? List.of() : SweepOptions.given(spec, "options");
        return parse(Calibration.merge(calibrated, given)).options;
    }

    /**
     * System properties for the trade app on every node: its session sizing, and with {@code --agent-noise}
     * the agent's readings transform that makes every reading noisy (the node launcher's NoisyReadings).
     */
    static List<String> appProperties(SweepSettings settings) {
        List<String> properties = new ArrayList<>();
        if (settings.readingNoise() > 0) {
            properties.add("-D" + NoisyReadings.TRANSFORM_PROPERTY + "=" + NoisyReadings.class.getName());
            properties.add("-D" + NoisyReadings.NOISE_PROPERTY + "=" + settings.readingNoise());
        }
        properties.add("-Dtrade.session.stateKb=" + settings.sessionStateKb());
        if (settings.sessionTimeoutSeconds() > 0) {
            properties.add("-Dtrade.session.timeoutSeconds=" + settings.sessionTimeoutSeconds());
        }
        return List.copyOf(properties);
    }

    /** System properties for one node only: the GC pressure of {@code --gc-pressure}. */
    static Map<String, List<String>> nodeProperties(SweepSettings settings) {
        if (settings.gcPressureNode() == null) {
            return Map.of();
        }
        return Map.of(settings.gcPressureNode(), List.of("-D" + GcPressure.PROPERTY + "=" + settings.gcPressureSetting()));
    }

    static ClusterProvisioner provisioner(SweepOptions o, Locations at, Path war, Path agent, List<String> appProperties,
            JdbcTiming jdbc, Map<String, List<String>> nodeProperties) {
        if (!nodeProperties.isEmpty() && !o.provisioner.equals("tomcat")) {
            throw new IllegalArgumentException("--gc-pressure needs the tomcat provisioner");
        }
        return switch (o.provisioner) {
            case "tomcat" -> new TomcatClusterProvisioner(at.launcherJar(), war, agent, appProperties, jdbc, nodeProperties);
            case "glassfish" -> {
                Path artifacts = at.root().resolve("benchmarks/glassfish/target/node-artifacts");
                String home = o.glassfishHome != null ? o.glassfishHome : System.getProperty(
                        GlassFishInstallation.HOME_PROPERTY, at.root().resolve("benchmarks/glassfish/target/glassfish7").toString());
                if (!Files.isDirectory(Path.of(home))) {
                    throw new IllegalArgumentException("--provisioner glassfish: no GlassFish 7 at " + home + "; pass"
                            + " --glassfish-home DIR, or unpack the project's with 'mvn -B -pl benchmarks/glassfish -am"
                            + " verify -DskipTests'");
                }
                // the server's common class path: the JDBC driver, and SLF4J (the trade app expects the
                // container to provide it)
                List<Path> serverLibs = new ArrayList<>();
                serverLibs.add(o.jdbcDriver != null ? o.jdbcDriver : artifacts.resolve("h2.jar"));
                serverLibs.add(artifacts.resolve("slf4j-api.jar"));
                serverLibs.add(artifacts.resolve("slf4j-jdk14.jar"));
                for (Path lib : serverLibs) {
                    if (!Files.isRegularFile(lib)) {
                        throw new IllegalArgumentException("--provisioner glassfish: " + lib + " does not exist; build"
                                + " it with 'mvn -B -pl benchmarks/glassfish -am verify -DskipTests' (or pass"
                                + " --jdbc-driver)");
                    }
                }
                yield new GlassFishClusterProvisioner(new GlassFishInstallation(Path.of(home),
                        Path.of(System.getProperty("java.home"))), at.launcherJar(), war, agent, serverLibs, "/trade",
                        appProperties, jdbc);
            }
            default -> throw new IllegalArgumentException("--provisioner: unknown provisioner '" + o.provisioner
                    + "'; known: tomcat, glassfish");
        };
    }

    private static String lowerBeforeOptions(String item) {
        int plus = item.indexOf('+');
        return plus < 0 ? item.toLowerCase(Locale.ROOT)
                : item.substring(0, plus).toLowerCase(Locale.ROOT) + item.substring(plus);
    }

    static List<String> list(String csv) {
        // lower case up to a row's policy options (+name=value), whose names are camelCase like the policies' own
        List<String> items = Stream.of(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .map(SweepCommand::lowerBeforeOptions).toList();
        if (items.isEmpty()) {
            throw new IllegalArgumentException("empty list '" + csv + "'");
        }
        return items;
    }
}
