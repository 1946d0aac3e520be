package io.loadwise.bench.provision;

import io.loadwise.node.DatabaseProcess;
import io.loadwise.node.NodeCapacity;
import io.loadwise.node.NodeLauncher;
import io.loadwise.node.glassfish.GlassFishInstallation;
import io.loadwise.node.glassfish.GlassFishProvisioner;
import io.loadwise.node.provision.NodeSpec;
import io.loadwise.node.provision.ProvisioningException;
import io.loadwise.node.provision.RunningNode;
import io.loadwise.node.provision.WarRepackager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * GlassFish 7 nodes, one domain each, created and configured through asadmin by
 * {@link GlassFishProvisioner} (heap, HTTP worker threads and queue, JDBC pool), in front of the same H2
 * database JVM the Tomcat nodes use. The JDBC driver jar goes onto each domain's common class path.
 */
public final class GlassFishClusterProvisioner implements ClusterProvisioner {

    private final GlassFishInstallation installation;
    private final Path launcherJar;
    private final Path war;
    private final Path agentJar;
    private final List<Path> serverLibs;
    private final String contextPath;
    private final List<String> appProperties;
    private final JdbcTiming jdbc;

    /**
     * @param agentJar      the node agent's jakarta JAR, added to the WAR's WEB-INF/lib; null for none
     * @param serverLibs    jars for each domain's common class path (JDBC driver, SLF4J)
     * @param appProperties {@code -Dname=value} options for each server JVM (the trade app's session sizing)
     */
    public GlassFishClusterProvisioner(GlassFishInstallation installation, Path launcherJar, Path war,
            Path agentJar, List<Path> serverLibs, String contextPath, List<String> appProperties) {
        this(installation, launcherJar, war, agentJar, serverLibs, contextPath, appProperties, JdbcTiming.DEFAULT);
    }

    /**
     * @param jdbc the trade app's JDBC hold (a system property of each server JVM) and the pool's wait
     *             (max-wait-time-in-millis)
     */
    public GlassFishClusterProvisioner(GlassFishInstallation installation, Path launcherJar, Path war,
            Path agentJar, List<Path> serverLibs, String contextPath, List<String> appProperties, JdbcTiming jdbc) {
        this.jdbc = jdbc;
        this.installation = installation;
        this.launcherJar = launcherJar;
        this.war = war;
        this.agentJar = agentJar;
        this.serverLibs = List.copyOf(serverLibs);
        this.contextPath = contextPath;
        this.appProperties = List.copyOf(appProperties);
    }

    /** The application's properties, and the JDBC hold when there is one. */
    private List<String> jvmOptions() {
        List<String> options = new ArrayList<>(appProperties);
        if (jdbc.holdMs() > 0) {
            options.add("-D" + JdbcTiming.HOLD_PROPERTY + "=" + jdbc.holdMs());
        }
        return options;
    }

    @Override
    public String kind() {
        return "glassfish";
    }

    @Override
    public ProvisionedCluster start(List<NodeCapacity> capacities, Path workDir, Duration timeout)
            throws IOException, InterruptedException {
        for (NodeCapacity c : capacities) {
            if (c.heapMb() < NodeSpec.MIN_HEAP_MB) {
                throw new IllegalArgumentException("a GlassFish node needs at least " + NodeSpec.MIN_HEAP_MB
                        + " MB of heap, but this scenario gives a node " + c.heapMb() + " MB: use --heap-mb "
                        + 2 * NodeSpec.MIN_HEAP_MB + " or more");
            }
        }
        NodeLauncher launcher = NodeLauncher.builder().workRoot(workDir).classpath(launcherJar.toString()).war(war)
                .build();
        Files.createDirectories(workDir);
        Path app = agentJar == null ? war
                : WarRepackager.withLibraries(war, List.of(agentJar), workDir.resolve("app-with-agent.war"));
        DatabaseProcess database = launcher.startDatabase(0, timeout);
        List<GlassFishProvisioner> provisioners = new ArrayList<>();
        List<BackendNode> nodes = new ArrayList<>();
        Running running = new Running(database, provisioners, nodes, contextPath, workDir.resolve("domains"));
        try {
            for (int i = 0; i < capacities.size(); i++) {
                NodeCapacity c = capacities.get(i);
                String name = "VCN" + (i + 1);
                GlassFishProvisioner provisioner = new GlassFishProvisioner(installation, workDir.resolve("domains"),
                        jvmOptions(), jdbc.maxWaitMs());
                provisioners.add(provisioner);
                RunningNode node = provisioner.start(new NodeSpec(name, 0, c.heapMb(),
                        c.httpThreads(), c.acceptQueue(), c.jdbcPool(), app, contextPath, serverLibs,
                        database.jdbcUrl(), "sa", ""));
                nodes.add(new BackendNode(name, node.host(), node.httpPort(), null));
            }
            return running;
        } catch (ProvisioningException | RuntimeException e) {
            running.close();
            throw new IOException("GlassFish provisioning failed: " + e.getMessage(), e);
        }
    }

    private record Running(DatabaseProcess database, List<GlassFishProvisioner> provisioners,
            List<BackendNode> nodeList, String contextPath, Path domainsDir) implements ProvisionedCluster {

        @Override
        public Path logFile(BackendNode node) {
            return domainsDir.resolve(node.name()).resolve("logs/server.log");
        }

        @Override
        public List<BackendNode> nodes() {
            return List.copyOf(nodeList);
        }

        @Override
        public String applicationUrl(BackendNode node) {
            return "http://" + node.address() + contextPath;
        }

        @Override
        public String diagnostics() {
            return "GlassFish domains: see the domains/*/logs/server.log files under the cell's work directory\n";
        }

        @Override
        public void close() {
            provisioners.forEach(GlassFishProvisioner::stop);
            database.close();
        }
    }
}
