package io.loadwise.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The options of one sweep run that {@code sweep} and {@code calibrate} share ({@code @Mixin}): durations,
 * load, node capacities, the provisioner, the workload and where the programs live. Which cells to run and
 * where their results go ({@code --scenarios}, {@code --policies}, {@code --out}, ...) are each command's own.
 * A field left {@code null} takes a default that depends on other options ({@code --quick}, {@code --scale}).
 */
final class SweepOptions {

    static final String SESSION_KB_DEFAULT = "(default " + (int) SweepCommand.SESSION_STATE_KB_AT_SCALE_1
            + " / scale: " + (int) (SweepCommand.SESSION_STATE_KB_AT_SCALE_1 / SweepCommand.DEFAULT_SCALE) + " at "
            + SweepCommand.DEFAULT_SCALE + ")";
    static final String SESSION_TIMEOUT_DEFAULT = "(default " + (int) SweepCommand.SESSION_TIMEOUT_S_AT_SCALE_1
            + " x scale: " + (int) (SweepCommand.SESSION_TIMEOUT_S_AT_SCALE_1 * SweepCommand.DEFAULT_SCALE) + " s at "
            + SweepCommand.DEFAULT_SCALE + "; 0: the app's 30 min)";

    @Option(names = "--quick",
            description = "CI smoke run: combined scenario, all 12 rows, 10 threads for 5 s, no ramp (scale "
                    + SweepCommand.QUICK_SCALE + ")")
    boolean quick;

    @Option(names = "--scale", paramLabel = "X", description = "duration scale (default " + SweepCommand.DEFAULT_SCALE
            + ", --quick " + SweepCommand.QUICK_SCALE + "; 1 = the seed's 5-minute runs)")
    Double scale;

    @Option(names = "--threads", paramLabel = "N", description = "JMeter threads, a multiple of 10 (default: the"
            + " calibration's, else " + SweepCommand.DEFAULT_THREADS + ": 20 connections on each node under round robin,"
            + " beyond VCN3's 6 workers + 12 queued; --quick 10)")
    Integer threads;

    @Option(names = "--repeats", paramLabel = "N", description = "runs of every cell (default "
            + io.loadwise.bench.sweep.SweepSettings.RECOMMENDED_REPEATS + "; fewer needs --repeats-reason; --quick 1)")
    Integer repeats;

    @Option(names = "--repeats-reason", paramLabel = "TEXT",
            description = "why fewer runs than the method's 5: printed in the results")
    String repeatsReason;

    @Option(names = "--seed", paramLabel = "N", description = "seed of the randomised run order (default ${DEFAULT-VALUE})")
    long seed = SweepCommand.DEFAULT_SEED;

    @Option(names = "--heap-mb", paramLabel = "N",
            description = "heap of a full node; VCN3 gets half in heap/combined (default ${DEFAULT-VALUE})")
    int heapMb = SweepCommand.DEFAULT_FULL_NODE.heapMb();

    @Option(names = "--node-threads", paramLabel = "N",
            description = "HTTP worker threads of a full node; VCN3 gets half (default ${DEFAULT-VALUE})")
    int nodeThreads = SweepCommand.DEFAULT_FULL_NODE.httpThreads();

    @Option(names = "--node-queue", paramLabel = "N",
            description = "request queue of every node: beyond threads + queue a node refuses (default ${DEFAULT-VALUE})")
    int nodeQueue = SweepCommand.DEFAULT_FULL_NODE.acceptQueue();

    @Option(names = "--vcn3-queue", paramLabel = "seed|half", description = "VCN3's request queue where its worker"
            + " threads are halved (http-threads, combined): seed (default) keeps the full queue, as seed 001 Table 9"
            + " does; half halves it too, a departure from Table 9. The seed's nodes had their own CPUs, so half the"
            + " threads was half the throughput; here the nodes share the machine's cores, threads cap only"
            + " concurrency, and a node refuses beyond threads + queue: with the seed's queue VCN3 holds 6 + 12 = 18"
            + " of a full node's 24, and no thread count overloads VCN3 under round robin (threads/3 > 18) while the"
            + " 2:2:1 control stays within 24 on VCN1/VCN2 (2 threads/5). half: VCN3 holds 6 + 6 = 12")
    String vcn3Queue = "seed";

    @Option(names = "--node-jdbc", paramLabel = "N",
            description = "JDBC pool of a full node; VCN3 gets half (default ${DEFAULT-VALUE})")
    int nodeJdbc = SweepCommand.DEFAULT_FULL_NODE.jdbcPool();

    @Option(names = "--gc-pressure", paramLabel = "NODE:PERIOD_MS[:BALLAST_MB]", description = "one node collects"
            + " garbage over and over: a full collection every PERIOD_MS over BALLAST_MB of live small objects, at nice 19"
            + " (node launcher's GcPressure), to see which policy keeps requests off a thrashing JVM, e.g. VCN3:200:300"
            + " with --heap-mb 512 (default: none)")
    String gcPressure;

    @Option(names = "--agent-noise", paramLabel = "F", description = "every node puts noise on every agent reading,"
            + " a factor drawn uniformly within 1 ± F (0.2: ±20 %%; percentages kept within 0..100), to see what the"
            + " agent-driven policies do with noisy readings (default 0: none)")
    Double agentNoise;

    @Option(names = "--jdbc-hold-ms", paramLabel = "MS", description = "every trade scenario request holds a JDBC"
            + " connection MS ms, sleeping (a conversation that reads, waits on a remote call, then writes), so pool use"
            + " stops following the requests in flight (default ${DEFAULT-VALUE}: none)")
    long jdbcHoldMs = io.loadwise.bench.provision.JdbcTiming.DEFAULT.holdMs();

    @Option(names = "--jdbc-max-wait-ms", paramLabel = "MS", description = "longest wait for a pooled JDBC connection"
            + " on every node; then the trade app answers 503, counted as a failure on that node (default"
            + " ${DEFAULT-VALUE})")
    long jdbcMaxWaitMs = io.loadwise.bench.provision.JdbcTiming.DEFAULT.maxWaitMs();

    @Option(names = "--session-kb", paramLabel = "N", description = "per-session state of the trade app, KB " + SESSION_KB_DEFAULT)
    Integer sessionKb;

    @Option(names = "--session-timeout-s", paramLabel = "N",
            description = "idle timeout of the trade app's sessions " + SESSION_TIMEOUT_DEFAULT)
    Integer sessionTimeoutS;

    @Option(names = "--provisioner", paramLabel = "KIND",
            description = "tomcat (default) or glassfish (needs a GlassFish 7, see --glassfish-home)")
    String provisioner = "tomcat";

    @Option(names = "--glassfish-home", paramLabel = "DIR", description = "the glassfish7 directory of an unpacked"
            + " GlassFish 7 (default: the one benchmarks/glassfish unpacks in its target/ on mvn verify)")
    String glassfishHome;

    @Option(names = "--jdbc-driver", paramLabel = "JAR", description = "JDBC driver for GlassFish domains (default: that module's H2)")
    Path jdbcDriver;

    @Option(names = "--war", paramLabel = "FILE", description = "web application (default: the trade app)")
    Path war;

    @Option(names = "--plan", paramLabel = "FILE", description = "JMeter plan (default: benchmarks/jmeter/trade-scenario.jmx)")
    Path plan;

    @Option(names = "--path", paramLabel = "P", description = "sampled path (default ${DEFAULT-VALUE})")
    String path = "/trade/scenario";

    @Option(names = "--reset", paramLabel = "PATH|none",
            description = "database reset request on node 1 (default ${DEFAULT-VALUE})")
    String reset = "/trade/config?action=buildDB&users=500&quotes=1000";

    @Option(names = "--http-balance", paramLabel = "MODE", description = "per-connection (default, the seed's TDCR-04:"
            + " a node per client connection) or per-request (a node per request, cookie affinity)")
    String httpBalance = "per-connection";

    @Option(names = "--connection-ttl-ms", paramLabel = "N", description = "JMeter reuses a connection for N ms, then"
            + " reconnects and the dispatcher chooses again (default ${DEFAULT-VALUE}: the seed's ~1.25 selections/s"
            + " per connection)")
    int connectionTtlMs = SweepCommand.DEFAULT_CONNECTION_TTL_MS;

    @Option(names = "--agent-jar", paramLabel = "FILE|none", description = "node agent JAR for the nodes (default:"
            + " node-agent/jakarta build)")
    String agentJar;

    @Option(names = "--dispatcher-jar", paramLabel = "JAR", description = "override location (default:"
            + " admin-console/target/loadwise.jar)")
    Path dispatcherJar;

    @Option(names = "--launcher-jar", paramLabel = "JAR", description = "override location (default:"
            + " benchmarks/node-launcher/target/loadwise-node-launcher.jar)")
    Path launcherJar;

    @Option(names = "--jmeter-home", paramLabel = "DIR", description = "override location (default:"
            + " benchmarks/jmeter/target/jmeter)")
    Path jmeterHome;

    @Option(names = "--root", paramLabel = "DIR", description = "the repository (default: the one this jar was built in)")
    Path root;

    /**
     * The options of mixin {@code mixin} as {@code command}'s command line gave them, in its order
     * ({@code --session-timeout-s 10}).
     */
    static List<String> given(CommandSpec command, String mixin) {
        CommandSpec options = command.mixins().get(mixin);
        List<String> args = new ArrayList<>();
        if (command.commandLine() == null || command.commandLine().getParseResult() == null) {
            return args;
        }
        // picocli lists an option once per occurrence, with all of its values each time
        for (OptionSpec given : new LinkedHashSet<>(command.commandLine().getParseResult().matchedOptions())) {
            if (options.findOption(given.longestName()) == null) {
                continue;
            }
            if (given.arity().max() == 0) {
                args.add(given.longestName());
            } else {
                for (String value : given.originalStringValues()) {
                    args.add(given.longestName());
                    args.add(value);
                }
            }
        }
        return args;
    }

    /** The programs this sweep starts; throws when a jar is missing. */
    Locations locations() {
        return Locations.from(root, dispatcherJar, launcherJar, jmeterHome);
    }
}
