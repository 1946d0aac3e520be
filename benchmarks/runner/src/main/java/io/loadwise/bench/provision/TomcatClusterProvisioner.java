package io.loadwise.bench.provision;

import io.loadwise.node.NodeCapacity;
import io.loadwise.node.NodeCluster;
import io.loadwise.node.NodeLauncher;
import io.loadwise.node.NodeProcess;
import io.loadwise.node.NodeSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Embedded Tomcat 11 nodes, one JVM each, from the node launcher jar, sharing one H2 database JVM. The
 * capacity goes to {@code -Xmx}, Tomcat's {@code maxThreads}, {@code maxQueueSize} and the DBCP pool's
 * {@code maxTotal}; the node name is the Tomcat {@code jvmRoute}.
 */
public final class TomcatClusterProvisioner implements ClusterProvisioner {

    private final Path launcherJar;
    private final Path war;
    private final Path agentJar;
    private final List<String> appProperties;
    private final JdbcTiming jdbc;
    private final Map<String, List<String>> nodeProperties;

    /**
     * @param launcherJar {@code loadwise-node-launcher.jar}
     * @param war         the web application; it must answer {@code /trade/health}
     * @param agentJar    the node agent's jakarta JAR added to the WAR, or null for none
     * @param appProperties {@code -Dname=value} options for the application (the trade app's session sizing)
     */
    public TomcatClusterProvisioner(Path launcherJar, Path war, Path agentJar, List<String> appProperties) {
        this(launcherJar, war, agentJar, appProperties, JdbcTiming.DEFAULT);
    }

    /** @param jdbc the nodes' JDBC hold and pool wait (node launcher --jdbc-hold-ms, --jdbc-max-wait-ms) */
    public TomcatClusterProvisioner(Path launcherJar, Path war, Path agentJar, List<String> appProperties,
            JdbcTiming jdbc) {
        this(launcherJar, war, agentJar, appProperties, jdbc, Map.of());
    }

    /** @param nodeProperties {@code -D} options for single nodes, by node name (--gc-pressure) */
    public TomcatClusterProvisioner(Path launcherJar, Path war, Path agentJar, List<String> appProperties,
            JdbcTiming jdbc, Map<String, List<String>> nodeProperties) {
        this.nodeProperties = Map.copyOf(nodeProperties);
        this.jdbc = jdbc;
        this.launcherJar = launcherJar;
        this.war = war;
        this.agentJar = agentJar;
        this.appProperties = List.copyOf(appProperties);
    }

    @Override
    public String kind() {
        return "tomcat";
    }

    @Override
    public ProvisionedCluster start(List<NodeCapacity> capacities, Path workDir, Duration timeout)
            throws IOException, InterruptedException {
        NodeLauncher.Builder builder = NodeLauncher.builder().workRoot(workDir).classpath(launcherJar.toString())
                .war(war).jvmOption("-XX:+UseSerialGC").jvmOption("-XX:TieredStopAtLevel=1")
                .jvmOption("-Xss512k");
        appProperties.forEach(builder::jvmOption);
        nodeProperties.forEach((node, options) -> options.forEach(option -> builder.nodeJvmOption(node, option)));
        builder.jdbcHoldMs(jdbc.holdMs()).jdbcMaxWaitMs(jdbc.maxWaitMs());
        if (agentJar != null) {
            builder.agentJar(agentJar);
        }
        List<NodeSpec> specs = new ArrayList<>();
        for (int i = 0; i < capacities.size(); i++) {
            specs.add(new NodeSpec("VCN" + (i + 1), 0, capacities.get(i)));
        }
        NodeCluster cluster = NodeCluster.start(builder.build(), 0, specs, timeout);
        return new Running(cluster);
    }

    private record Running(NodeCluster cluster) implements ProvisionedCluster {

        @Override
        public List<BackendNode> nodes() {
            return cluster.nodes().stream()
                    .map(n -> new BackendNode(n.name(), "127.0.0.1", n.port(), n.name())).toList();
        }

        @Override
        public String applicationUrl(BackendNode node) {
            return "http://" + node.address() + "/trade";
        }

        @Override
        public Path logFile(BackendNode node) {
            return cluster.nodes().stream().filter(n -> n.name().equals(node.name())).findFirst()
                    .map(NodeProcess::logFile).orElse(null);
        }

        @Override
        public String diagnostics() {
            StringBuilder text = new StringBuilder();
            for (NodeProcess node : cluster.nodes()) {
                text.append("--- ").append(node.name()).append(node.isAlive() ? " (running)" : " (exited)")
                        .append(" ").append(node.logFile()).append('\n');
                try {
                    node.logTail(15).forEach(line -> text.append(line).append('\n'));
                } catch (IOException e) {
                    text.append("(log unreadable: ").append(e.getMessage()).append(")\n");
                }
            }
            return text.toString();
        }

        @Override
        public void close() {
            cluster.close();
        }
    }
}
