package io.loadwise.node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The command line of {@link NodeMain}. Heap is not here: it is a JVM option ({@code -Xmx}) that
 * {@link NodeProcess} passes to the node's JVM.
 *
 * @param name         the node's name and Tomcat jvmRoute (JSESSIONID gets the suffix {@code .name})
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
        String dbUrl,
        Path war,
        List<Path> agentJars,
        Path workDir,
        boolean exitWithParent) {

    public static final String USAGE = """
            usage: NodeMain --db-url JDBC_URL [options]
              --name NAME            node name and Tomcat jvmRoute (alias --jvm-route; default node)
              --bind HOST            address to listen on (default 127.0.0.1)
              --port N               HTTP port, 0 for any free port (default 8080)
              --threads N            HTTP worker threads, Tomcat maxThreads (default 12)
              --accept-queue N       HTTP request queue, Tomcat maxQueueSize: beyond busy threads + queue
                                     the node refuses requests (default 12)
              --jdbc-pool N          JDBC pool size, maxTotal of jdbc/TradeDB (default 10)
              --db-url URL           JDBC URL of the shared trade database (required)
              --war PATH             trade app WAR (default: loadwise-trade-app.war next to the launcher)
              --agent-jar PATH       JAR to add to the app's WEB-INF/lib; may be repeated
              --work-dir PATH        Tomcat base directory (default: a temporary one, deleted at exit)
              --exit-with-parent     exit when standard input reaches end of file
              --help                 print this text
            heap is a JVM option: java -Xmx512m -jar loadwise-node-launcher.jar ...""";

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
        if (!dbUrl.startsWith("jdbc:h2:")) {
            throw new IllegalArgumentException("--db-url must be an H2 JDBC URL (jdbc:h2:tcp://host:port/trade),"
                    + " got '" + dbUrl + "'");
        }
    }

    /** Parses NodeMain's arguments; every mistake is an IllegalArgumentException naming the option. */
    public static NodeOptions parse(String... args) {
        String name = "node";
        String bind = "127.0.0.1";
        int port = 8080;
        int threads = NodeCapacity.BASELINE.httpThreads();
        int acceptQueue = NodeCapacity.BASELINE.acceptQueue();
        int jdbcPool = NodeCapacity.BASELINE.jdbcPool();
        String dbUrl = null;
        Path war = null;
        List<Path> agentJars = new ArrayList<>();
        Path workDir = null;
        boolean exitWithParent = false;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--exit-with-parent")) {
                exitWithParent = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option.startsWith("--")
                        ? option + " needs a value" : "unexpected argument '" + option + "'");
            }
            String value = args[++i];
            switch (option) {
                case "--name", "--jvm-route" -> name = value;
                case "--bind" -> bind = value;
                case "--port" -> port = integer(option, value);
                case "--threads" -> threads = integer(option, value);
                case "--accept-queue" -> acceptQueue = integer(option, value);
                case "--jdbc-pool" -> jdbcPool = integer(option, value);
                case "--db-url" -> dbUrl = value;
                case "--war" -> war = Path.of(value);
                case "--agent-jar" -> agentJars.add(Path.of(value));
                case "--work-dir" -> workDir = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option '" + option + "'");
            }
        }
        if (dbUrl == null) {
            throw new IllegalArgumentException("--db-url is required");
        }
        return new NodeOptions(name, bind, port, threads, acceptQueue, jdbcPool, dbUrl, war, agentJars, workDir,
                exitWithParent);
    }

    /** The arguments that {@link #parse} turns back into these options. */
    public List<String> toArguments() {
        List<String> args = new ArrayList<>(List.of("--name", name, "--bind", bindAddress,
                "--port", Integer.toString(port), "--threads", Integer.toString(httpThreads),
                "--accept-queue", Integer.toString(acceptQueue), "--jdbc-pool", Integer.toString(jdbcPool),
                "--db-url", dbUrl));
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

    private static int integer(String option, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs an integer, got '" + value + "'", e);
        }
    }

    private static void positive(String option, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(option + " must be at least 1, got " + value);
        }
    }
}
