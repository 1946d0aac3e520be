package io.loadwise.node;

import io.loadwise.cli.Cli;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The options of {@link NodeMain}, parsed from its command line ({@link NodeArguments}). Heap is not here: it is a JVM option ({@code -Xmx}) that
 * {@link NodeProcess} passes to the node's JVM.
 *
 * @param name         the node's name and Tomcat jvmRoute (JSESSIONID gets the suffix {@code .name})
 * @param jdbcMaxWaitMs longest wait for a connection of the jdbc/TradeDB pool (DBCP maxWaitMillis), after which the
 *                     trade app answers 503
 * @param jdbcHoldMs   the trade app's scenario requests each hold a JDBC connection this long ({@code trade.jdbc.holdMs},
 *                     a context parameter; 0: none)
 * @param war          the trade app WAR; null means {@code loadwise-trade-app.war} next to the launcher
 * @param agentJars    extra JARs (the Loadwise agent) copied into the app's {@code WEB-INF/lib}
 * @param workDir      Tomcat's base directory; null means a fresh temporary directory
 * @param exitWithParent exit when standard input closes, i.e. when the spawning process is gone
 */
public record NodeOptions(
        String name,
        String bindAddress,
        int port,
        int httpThreads,
        int acceptQueue,
        int jdbcPool,
        long jdbcMaxWaitMs,
        long jdbcHoldMs,
        String dbUrl,
        Path war,
        List<Path> agentJars,
        Path workDir,
        boolean exitWithParent) {

    /** Long enough to ride out a burst, short enough that an exhausted pool shows up as errors. */
    public static final long DEFAULT_JDBC_MAX_WAIT_MS = 10_000;

    /** Options with the pool's default wait and no hold. */
    public NodeOptions(String name, String bindAddress, int port, int httpThreads, int acceptQueue, int jdbcPool,
            String dbUrl, Path war, List<Path> agentJars, Path workDir, boolean exitWithParent) {
        this(name, bindAddress, port, httpThreads, acceptQueue, jdbcPool, DEFAULT_JDBC_MAX_WAIT_MS, 0, dbUrl, war,
                agentJars, workDir, exitWithParent);
    }

    public NodeOptions {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(dbUrl, "dbUrl");
        agentJars = List.copyOf(agentJars);
        if (!name.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("--name must be letters, digits, '_' or '-' (it ends session ids), got '"
                    + name + "'");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("--port must be between 0 and 65535, got " + port);
        }
        positive("--threads", httpThreads);
        positive("--accept-queue", acceptQueue);
        positive("--jdbc-pool", jdbcPool);
        if (jdbcMaxWaitMs < 1) {
            throw new IllegalArgumentException("--jdbc-max-wait-ms must be at least 1, got " + jdbcMaxWaitMs);
        }
        if (jdbcHoldMs < 0) {
            throw new IllegalArgumentException("--jdbc-hold-ms must not be negative, got " + jdbcHoldMs);
        }
        if (!dbUrl.startsWith("jdbc:h2:")) {
            throw new IllegalArgumentException("--db-url must be an H2 JDBC URL (jdbc:h2:tcp://host:port/trade),"
                    + " got '" + dbUrl + "'");
        }
    }

    /** Parses NodeMain's arguments; every mistake is an IllegalArgumentException naming the option. */
    public static NodeOptions parse(String... args) {
        NodeArguments arguments = new NodeArguments();
        Cli.parse(arguments.commandLine(), args);
        return arguments.toOptions();
    }

    /** The arguments that {@link #parse} turns back into these options. */
    public List<String> toArguments() {
        List<String> args = new ArrayList<>(List.of("--name", name, "--bind", bindAddress,
                "--port", Integer.toString(port), "--threads", Integer.toString(httpThreads),
                "--accept-queue", Integer.toString(acceptQueue), "--jdbc-pool", Integer.toString(jdbcPool),
                "--db-url", dbUrl));
        if (jdbcMaxWaitMs != DEFAULT_JDBC_MAX_WAIT_MS) {
            args.addAll(List.of("--jdbc-max-wait-ms", Long.toString(jdbcMaxWaitMs)));
        }
        if (jdbcHoldMs != 0) {
            args.addAll(List.of("--jdbc-hold-ms", Long.toString(jdbcHoldMs)));
        }
        if (war != null) {
            args.addAll(List.of("--war", war.toString()));
        }
        for (Path jar : agentJars) {
            args.addAll(List.of("--agent-jar", jar.toString()));
        }
        if (workDir != null) {
            args.addAll(List.of("--work-dir", workDir.toString()));
        }
        if (exitWithParent) {
            args.add("--exit-with-parent");
        }
        return args;
    }

    private static void positive(String option, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(option + " must be at least 1, got " + value);
        }
    }
}
