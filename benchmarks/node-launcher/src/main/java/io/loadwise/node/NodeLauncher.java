package io.loadwise.node;

import io.loadwise.node.process.ChildJvm;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How to start node and database JVMs: which java, which classpath (the launcher jar), which WAR
 * and agent JARs, and under which directory each child gets its work directory and log file.
 *
 * <pre>{@code
 * NodeLauncher launcher = NodeLauncher.builder().workRoot(dir).agentJar(agent).build();
 * try (DatabaseProcess db = launcher.startDatabase(9092, Duration.ofSeconds(30));
 *      NodeProcess node = launcher.startNode(new NodeSpec("VCN1", 8081, NodeCapacity.BASELINE), db.jdbcUrl())) {
 *     node.awaitHealthy(Duration.ofSeconds(60));
 * }
 * }</pre>
 */
public final class NodeLauncher {

    private final String javaExecutable;
    private final String classpath;
    private final Path war;
    private final List<Path> agentJars;
    private final Path workRoot;
    private final List<String> jvmOptions;
    private final long jdbcMaxWaitMs;
    private final long jdbcHoldMs;
    private final java.util.Map<String, List<String>> nodeJvmOptions;

    private NodeLauncher(Builder b) {
        this.jdbcMaxWaitMs = b.jdbcMaxWaitMs;
        this.jdbcHoldMs = b.jdbcHoldMs;
        this.javaExecutable = b.javaExecutable;
        this.classpath = b.classpath;
        this.war = b.war;
        this.agentJars = List.copyOf(b.agentJars);
        this.workRoot = b.workRoot;
        this.jvmOptions = List.copyOf(b.jvmOptions);
        this.nodeJvmOptions = java.util.Map.copyOf(b.nodeJvmOptions);
    }

    public static Builder builder() {
        return new Builder();
    }

    public Path workRoot() {
        return workRoot;
    }

    public Path war() {
        return war;
    }

    /**
     * Starts a node JVM with {@code -Xmx} from its capacity; returns at once so several nodes start in
     * parallel. Call {@link NodeProcess#awaitHealthy} before sending traffic.
     */
    public NodeProcess startNode(NodeSpec spec, String dbUrl) throws IOException {
        Path nodeDir = workRoot.resolve(spec.name());
        if (Files.exists(nodeDir)) {
            throw new IOException("node work directory exists already (node name used twice?): " + nodeDir);
        }
        NodeOptions options = new NodeOptions(spec.name(), "127.0.0.1", spec.port(), spec.capacity().httpThreads(),
                spec.capacity().acceptQueue(), spec.capacity().jdbcPool(), jdbcMaxWaitMs, jdbcHoldMs, dbUrl, war, agentJars,
                nodeDir.resolve("tomcat"), true);
        List<String> command = javaCommand("-Xmx" + spec.capacity().heapMb() + "m", NodeMain.class.getName(),
                nodeJvmOptions.getOrDefault(spec.name(), List.of()));
        command.addAll(options.toArguments());
        ChildJvm jvm = ChildJvm.start("node " + spec.name(), command, nodeDir.resolve("node.log"),
                NodeMain.READY_MARKER);
        return new NodeProcess(spec, jvm);
    }

    /** Starts the H2 database server JVM and waits until it listens. {@code port} 0 means any free port. */
    public DatabaseProcess startDatabase(int port, Duration timeout) throws IOException, InterruptedException {
        Path dbDir = workRoot.resolve("database");
        List<String> command = javaCommand("-Xmx256m", DatabaseMain.class.getName());
        command.addAll(List.of("--port", Integer.toString(port), "--data-dir", dbDir.resolve("data").toString(),
                "--exit-with-parent"));
        ChildJvm jvm = ChildJvm.start("database", command, dbDir.resolve("database.log"), DatabaseMain.READY_MARKER);
        try {
            return new DatabaseProcess(jvm, ReadyLine.port(jvm.awaitReady(timeout)));
        } catch (IOException | InterruptedException | RuntimeException e) {
            jvm.close();
            throw e;
        }
    }

    private List<String> javaCommand(String heapOption, String mainClass) {
        return javaCommand(heapOption, mainClass, List.of());
    }

    private List<String> javaCommand(String heapOption, String mainClass, List<String> ownOptions) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable);
        command.add(heapOption);
        command.addAll(jvmOptions);
        command.addAll(ownOptions);
        command.addAll(List.of("-cp", classpath, mainClass));
        return command;
    }

    public static final class Builder {
        private String javaExecutable = ChildJvm.javaExecutable();
        private String classpath;
        private Path war;
        private final List<Path> agentJars = new ArrayList<>();
        private Path workRoot;
        private final List<String> jvmOptions = new ArrayList<>();
        private final java.util.Map<String, List<String>> nodeJvmOptions = new java.util.HashMap<>();
        private long jdbcMaxWaitMs = NodeOptions.DEFAULT_JDBC_MAX_WAIT_MS;
        private long jdbcHoldMs;

        private Builder() {
        }

        /** Every node's longest wait for a pooled JDBC connection (default 10 s). */
        public Builder jdbcMaxWaitMs(long value) {
            this.jdbcMaxWaitMs = value;
            return this;
        }

        /** How long every node's scenario requests hold a JDBC connection (default 0: none). */
        public Builder jdbcHoldMs(long value) {
            this.jdbcHoldMs = value;
            return this;
        }

        /** Default: the java of this JVM. */
        public Builder javaExecutable(String value) {
            this.javaExecutable = Objects.requireNonNull(value);
            return this;
        }

        /** Default: the jar (or classpath) this class was loaded from; it must hold Tomcat and H2 too. */
        public Builder classpath(String value) {
            this.classpath = Objects.requireNonNull(value);
            return this;
        }

        /** Default: {@code loadwise-trade-app.war} beside the launcher jar (or beside target/classes). */
        public Builder war(Path value) {
            this.war = value.toAbsolutePath();
            return this;
        }

        /** A JAR, typically the Loadwise agent, to add to every node's {@code WEB-INF/lib}. */
        public Builder agentJar(Path value) {
            this.agentJars.add(value.toAbsolutePath());
            return this;
        }

        /** Where each child gets its directory ({@code <root>/VCN1}, {@code <root>/database}). Required. */
        public Builder workRoot(Path value) {
            this.workRoot = value.toAbsolutePath();
            return this;
        }

        /** Extra JVM options for every child, e.g. {@code -XX:+UseSerialGC}. */
        /** A JVM option for the node named {@code node} only, after the options of every node. */
        public Builder nodeJvmOption(String node, String value) {
            List<String> options = new ArrayList<>(nodeJvmOptions.getOrDefault(node, List.of()));
            options.add(Objects.requireNonNull(value));
            nodeJvmOptions.put(node, List.copyOf(options));
            return this;
        }

        public Builder jvmOption(String value) {
            this.jvmOptions.add(Objects.requireNonNull(value));
            return this;
        }

        public NodeLauncher build() {
            if (workRoot == null) {
                throw new IllegalStateException("workRoot is required");
            }
            try {
                Path code = Path.of(NodeLauncher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                if (classpath == null) {
                    classpath = Files.isRegularFile(code) ? code.toString() : System.getProperty("java.class.path");
                }
                if (war == null) {
                    war = NodeMain.defaultWar();
                }
            } catch (URISyntaxException e) {
                throw new IllegalStateException("cannot locate the launcher's code", e);
            }
            if (!Files.isRegularFile(war)) {
                throw new IllegalStateException("trade app WAR not found: " + war + " (build benchmarks/trade-app"
                        + " or pass it with war(...))");
            }
            for (Path jar : agentJars) {
                if (!Files.isRegularFile(jar)) {
                    throw new IllegalStateException("agent JAR not found: " + jar);
                }
            }
            return new NodeLauncher(this);
        }
    }
}
