package io.loadwise.bench;

import io.loadwise.bench.jmeter.JMeterRun;
import io.loadwise.bench.provision.ClusterProvisioner;
import io.loadwise.bench.provision.GlassFishClusterProvisioner;
import io.loadwise.bench.provision.TomcatClusterProvisioner;
import io.loadwise.bench.report.SweepReport;
import io.loadwise.bench.sweep.CapacityPlan;
import io.loadwise.bench.sweep.CellRunner;
import io.loadwise.bench.sweep.PolicyRow;
import io.loadwise.bench.sweep.SweepRunner;
import io.loadwise.bench.sweep.SweepSettings;
import io.loadwise.bench.sweep.Workload;
import io.loadwise.node.glassfish.GlassFishInstallation;
import io.loadwise.node.NodeCapacity;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/** {@code sweep}: every scenario x policy row cell into {@code benchmarks/results/<date>-<name>/}. */
public final class SweepCommand {

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
    /** Duration scale of {@code --quick}: all 10 threads at once for 5 s, no ramp (a smoke run, not a measurement). */
    public static final double QUICK_SCALE = 0.04;

    static final Set<String> VALUED = Set.of("scale", "threads", "scenarios", "policies", "heap-mb", "node-threads", "node-queue", "node-jdbc", "session-kb", "session-timeout-s", "provisioner",
            "glassfish-home", "jdbc-driver", "war", "plan", "path", "reset", "out", "name", "work-dir",
            "dispatcher-jar", "launcher-jar", "agent-jar", "jmeter-home", "root", "http-balance",
            "connection-ttl-ms");
    static final Set<String> FLAGS = Set.of("quick");

    static final String USAGE = """
            Usage: loadwise bench sweep [options]
              Runs seed 001's evaluation: every capacity scenario (Table 7/9) x every policy row (Table 10), one
              cell at a time: fresh database and nodes, database reset, dispatcher with the policy, JMeter,
              collect, stop everything. Results: benchmarks/results/<date>-<name>/ (tables, ranking, plots).
              An interrupted sweep resumes where it stopped when run again with the same settings.
            Options:
              --quick                 CI smoke run: combined scenario, all 12 rows, 10 threads for 5 s, no ramp
              --scale X               duration scale (default 0.05; 1 = the seed's 5-minute runs)
              --threads N             JMeter threads, a multiple of 10 (default 30)
              --scenarios a,b         baseline,heap,http-threads,jdbc,combined (default all)
              --policies a,b          policy rows, e.g. tcp-random,http-jvm-aware (default all 12)
              --heap-mb N             heap of a full node; VCN3 gets half in heap/combined (default %d)
              --node-threads N        HTTP worker threads of a full node; VCN3 gets half (default %d)
              --node-queue N          request queue of every node: beyond threads + queue a node refuses (default %d)
              --node-jdbc N           JDBC pool of a full node; VCN3 gets half (default %d)
              --session-kb N          per-session state of the trade app, KB (default %.0f / scale: 450 at 0.1)
              --session-timeout-s N   idle timeout of the trade app's sessions (default %.0f x scale: 10 s at
                                      0.1; 0: the app's 30 min)
              --provisioner KIND      tomcat (default) or glassfish (needs --glassfish-home)
              --glassfish-home DIR    the glassfish7 directory of an unpacked GlassFish 7 (default: the one
                                      benchmarks/glassfish unpacks in its target/ on mvn verify)
              --jdbc-driver JAR       JDBC driver for GlassFish domains (default: that module's H2)
              --war FILE              web application (default: the trade app)
              --plan FILE             JMeter plan (default: benchmarks/jmeter/trade-scenario.jmx)
              --path P                sampled path (default /trade/scenario)
              --reset PATH|none       database reset request on node 1 (default
                                      /trade/config?action=buildDB&users=500&quotes=1000)
              --out DIR               results folder (default: resume the latest matching one, or a new one)
              --name NAME             folder suffix (default sweep, or sweep-quick)
              --http-balance MODE     per-connection (default, the seed's TDCR-04: a node per client
                                      connection) or per-request (a node per request, cookie affinity)
              --connection-ttl-ms N   JMeter reuses a connection for N ms, then reconnects and the dispatcher
                                      chooses again (default 1000: the seed's ~1.25 selections/s per connection)
              --agent-jar FILE|none   node agent JAR for the nodes (default: node-agent/jakarta build)
              --dispatcher-jar, --launcher-jar, --jmeter-home, --work-dir, --root   override locations
            """.formatted(DEFAULT_FULL_NODE.heapMb(), DEFAULT_FULL_NODE.httpThreads(), DEFAULT_FULL_NODE.acceptQueue(),
            DEFAULT_FULL_NODE.jdbcPool(), SESSION_STATE_KB_AT_SCALE_1, SESSION_TIMEOUT_S_AT_SCALE_1);

    private SweepCommand() {
    }

    /** Runs the sweep; returns the number of cells with errors. */
    public static int run(List<String> args, PrintStream out) throws IOException, InterruptedException {
        Options o = Options.parse(args, VALUED, FLAGS);
        Locations at = Locations.from(o);
        boolean quick = o.flag("quick");
        String agentOption = o.get("agent-jar", null);
        Path agent = "none".equals(agentOption) ? null : agentOption != null ? Path.of(agentOption) : at.agentJar();
        if (agent != null && !Files.isRegularFile(agent)) {
            throw new IllegalArgumentException("agent jar " + agent + " does not exist (build node-agent or pass"
                    + " --agent-jar none)");
        }
        Path plan = Path.of(o.get("plan", at.root().resolve("benchmarks/jmeter/trade-scenario.jmx").toString()));
        if (!Files.isRegularFile(plan)) {
            throw new IllegalArgumentException("JMeter plan " + plan + " does not exist");
        }
        List<String> scenarios = list(o.get("scenarios", quick ? "combined" : "baseline,heap,http-threads,jdbc,combined"));
        scenarios.forEach(CapacityPlan::parseScenario);
        List<String> rows = list(o.get("policies", String.join(",", Arrays.stream(PolicyRow.values())
                .map(PolicyRow::key).toList())));
        rows.forEach(PolicyRow::parse);
        String provisionerKind = o.get("provisioner", "tomcat");
        double scale = o.doubleValue("scale", quick ? QUICK_SCALE : DEFAULT_SCALE); // Durations checks its range
        SweepSettings settings = new SweepSettings(o.get("name", quick ? "sweep-quick" : "sweep"), scenarios, rows,
                scale, o.intValue("threads", quick ? 10 : 30),
                new NodeCapacity(o.intValue("heap-mb", DEFAULT_FULL_NODE.heapMb()),
                        o.intValue("node-threads", DEFAULT_FULL_NODE.httpThreads()),
                        o.intValue("node-queue", DEFAULT_FULL_NODE.acceptQueue()),
                        o.intValue("node-jdbc", DEFAULT_FULL_NODE.jdbcPool())),
                o.intValue("session-kb", (int) Math.round(SESSION_STATE_KB_AT_SCALE_1 / scale)),
                o.intValue("session-timeout-s", (int) Math.max(1, Math.round(SESSION_TIMEOUT_S_AT_SCALE_1 * scale))),
                provisionerKind, plan.getFileName().toString(),
                agent != null, o.get("http-balance", "per-connection"),
                o.intValue("connection-ttl-ms", DEFAULT_CONNECTION_TTL_MS));
        if (settings.connectionTtlMs() < 1) {
            throw new IllegalArgumentException("--connection-ttl-ms must be at least 1, got " + settings.connectionTtlMs());
        }
        if (!List.of("per-connection", "per-request").contains(settings.httpBalance())) {
            throw new IllegalArgumentException("--http-balance: '" + settings.httpBalance()
                    + "' is neither per-connection nor per-request");
        }
        settings.durations(); // validates scale and threads
        settings.scenarioList().forEach(settings.capacity()::capacities); // e.g. a halved heap below the minimum
        Path war = Path.of(o.get("war", at.launcherJar().resolveSibling("loadwise-trade-app.war").toString()));
        if (settings.sessionStateKb() < 0) {
            throw new IllegalArgumentException("--session-kb must not be negative, got " + settings.sessionStateKb());
        }
        if (settings.sessionTimeoutSeconds() < 0) {
            throw new IllegalArgumentException("--session-timeout-s must not be negative, got "
                    + settings.sessionTimeoutSeconds());
        }
        ClusterProvisioner provisioner = provisioner(provisionerKind, o, at, war, agent, appProperties(settings));
        String reset = o.get("reset", "/trade/config?action=buildDB&users=500&quotes=1000");
        Workload workload = new Workload(plan, o.get("path", "/trade/scenario"), "none".equals(reset) ? null : reset,
                settings.durations(), settings.httpBalance().equals("per-request"), settings.connectionTtlMs());
        Path outDir = o.get("out", null) != null ? Path.of(o.get("out", null))
                : ResultsFolder.choose(at.root().resolve("benchmarks/results"), settings, LocalDate.now(ZoneOffset.UTC));
        Path work = Path.of(o.get("work-dir", at.root().resolve("benchmarks/runner/target/sweep-work").toString()));
        CellRunner cells = new CellRunner(provisioner, settings.capacity(), at.dispatcherJar(),
                new JMeterRun(at.jmeterHome()), workload, work);
        return new SweepRunner(settings, cells, outDir, out, new SweepReport(settings, outDir, Environment.describe())).run();
    }

    /** System properties for the trade app on every node: its session sizing. */
    static List<String> appProperties(SweepSettings settings) {
        List<String> properties = new ArrayList<>();
        properties.add("-Dtrade.session.stateKb=" + settings.sessionStateKb());
        if (settings.sessionTimeoutSeconds() > 0) {
            properties.add("-Dtrade.session.timeoutSeconds=" + settings.sessionTimeoutSeconds());
        }
        return List.copyOf(properties);
    }

    static ClusterProvisioner provisioner(String kind, Options o, Locations at, Path war, Path agent,
            List<String> appProperties) {
        return switch (kind) {
            case "tomcat" -> new TomcatClusterProvisioner(at.launcherJar(), war, agent, appProperties);
            case "glassfish" -> {
                Path artifacts = at.root().resolve("benchmarks/glassfish/target/node-artifacts");
                String home = o.get("glassfish-home", System.getProperty(GlassFishInstallation.HOME_PROPERTY,
                        at.root().resolve("benchmarks/glassfish/target/glassfish7").toString()));
                if (!Files.isDirectory(Path.of(home))) {
                    throw new IllegalArgumentException("--provisioner glassfish: no GlassFish 7 at " + home + "; pass"
                            + " --glassfish-home DIR, or unpack the project's with 'mvn -B -pl benchmarks/glassfish -am"
                            + " verify -DskipTests'");
                }
                // the server's common class path: the JDBC driver, and SLF4J (the trade app expects the
                // container to provide it)
                List<Path> serverLibs = new ArrayList<>();
                serverLibs.add(Path.of(o.get("jdbc-driver", artifacts.resolve("h2.jar").toString())));
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
                        appProperties);
            }
            default -> throw new IllegalArgumentException("unknown provisioner '" + kind + "'; known: tomcat, glassfish");
        };
    }

    static List<String> list(String csv) {
        List<String> items = Stream.of(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .map(s -> s.toLowerCase(Locale.ROOT)).toList();
        if (items.isEmpty()) {
            throw new IllegalArgumentException("empty list '" + csv + "'");
        }
        return items;
    }
}
