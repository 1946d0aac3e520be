package io.loadwise.node;

import io.loadwise.cli.Cli;
import io.loadwise.cli.HelpOption;
import io.loadwise.cli.UsageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The command line of {@link NodeMain}, which picocli fills in; {@link #toOptions} checks and freezes it. */
@Command(name = "NodeMain", customSynopsis = "NodeMain --db-url JDBC_URL [options]",
        description = "Runs one trade-app node on embedded Tomcat and prints " + NodeMain.READY_MARKER
            + " port=N route=NAME once it serves; stops on SIGTERM.",
        footer = "heap is a JVM option: java -Xmx512m -jar loadwise-node-launcher.jar ...")
final class NodeArguments {

    @Option(names = {"--name", "--jvm-route"}, paramLabel = "NAME",
            description = "node name and Tomcat jvmRoute (alias --jvm-route; default node)")
    String name = "node";

    @Option(names = "--bind", paramLabel = "HOST", description = "address to listen on (default 127.0.0.1)")
    String bind = "127.0.0.1";

    @Option(names = "--port", paramLabel = "N", description = "HTTP port, 0 for any free port (default 8080)")
    int port = 8080;

    @Option(names = "--threads", paramLabel = "N", description = "HTTP worker threads, Tomcat maxThreads (default 12)")
    int threads = NodeCapacity.BASELINE.httpThreads();

    @Option(names = "--accept-queue", paramLabel = "N", description = "HTTP request queue, Tomcat maxQueueSize: beyond "
            + "busy threads + queue the node refuses requests (default 12)")
    int acceptQueue = NodeCapacity.BASELINE.acceptQueue();

    @Option(names = "--jdbc-pool", paramLabel = "N", description = "JDBC pool size, maxTotal of jdbc/TradeDB (default 10)")
    int jdbcPool = NodeCapacity.BASELINE.jdbcPool();

    @Option(names = "--jdbc-max-wait-ms", paramLabel = "MS", description = "longest wait for a pooled JDBC connection,"
            + " DBCP maxWaitMillis of jdbc/TradeDB; then the trade app answers 503 (default 10000)")
    long jdbcMaxWaitMs = NodeOptions.DEFAULT_JDBC_MAX_WAIT_MS;

    @Option(names = "--jdbc-hold-ms", paramLabel = "MS", description = "each scenario request of the trade app holds a"
            + " JDBC connection this long, sleeping (context parameter trade.jdbc.holdMs; default 0: none)")
    long jdbcHoldMs;

    // required, but checked in toOptions: its message has been "--db-url is required" for the callers' tests
    @Option(names = "--db-url", paramLabel = "URL", description = "JDBC URL of the shared trade database (required)")
    String dbUrl;

    @Option(names = "--war", paramLabel = "PATH",
            description = "trade app WAR (default: loadwise-trade-app.war next to the launcher)")
    Path war;

    @Option(names = "--agent-jar", paramLabel = "PATH", description = "JAR to add to the app's WEB-INF/lib; may be repeated")
    List<Path> agentJars = new ArrayList<>();

    @Option(names = "--work-dir", paramLabel = "PATH", description = "Tomcat base directory (default: a temporary one, deleted at exit)")
    Path workDir;

    @Option(names = "--exit-with-parent", description = "exit when standard input reaches end of file")
    boolean exitWithParent;

    @Mixin
    HelpOption help;

    /** picocli over this object, configured as every Loadwise command line. */
    CommandLine commandLine() {
        return Cli.configure(new CommandLine(this));
    }

    /** The options given; every mistake is a {@link UsageException} naming the option. */
    NodeOptions toOptions() {
        if (dbUrl == null) {
            throw new UsageException("--db-url is required");
        }
        try {
            return new NodeOptions(name, bind, port, threads, acceptQueue, jdbcPool, jdbcMaxWaitMs, jdbcHoldMs, dbUrl,
                    war, agentJars, workDir, exitWithParent);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
