package io.loadwise.node.glassfish;

import io.loadwise.node.provision.NodeProvisioner;
import io.loadwise.node.provision.NodeSpec;
import io.loadwise.node.provision.ProvisioningException;
import io.loadwise.node.provision.RunningNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Provisions a node as a fresh GlassFish 7 domain: the spec's heap and server-wide jars before the first
 * start, then HTTP listener (127.0.0.1), worker threads and queue, monitoring and the {@code jdbc/TradeDB}
 * pool live through asadmin, then the WAR (with a glassfish-web.xml binding its jdbc/TradeDB
 * resource-ref, see {@link ResourceMapping}). A Loadwise agent inside the WAR is pointed at mappings
 * pinned to this listener and pool ({@link AgentMappingPins}).
 */
public final class GlassFishProvisioner implements NodeProvisioner {

    /** JNDI name the trade app's resource-ref resolves to. */
    public static final String TRADE_DATASOURCE = "jdbc/TradeDB";
    /** Pool name; the agent finds its statistics under {@code resources/TradePool}. */
    public static final String TRADE_POOL = "TradePool";
    static final String LISTEN_ADDRESS = "127.0.0.1";
    /** System property naming the Loadwise agent's configuration file (docs/agent.md). */
    static final String AGENT_CONFIG_PROPERTY = "loadwise.agent.config";

    private final GlassFishInstallation installation;
    private final Path domainsDir;
    private final long jdbcMaxWaitMs;
    private final List<String> jvmOptions;
    private GlassFishServer server;

    /**
     * @param installation the unpacked distribution to run
     * @param domainsDir   where the node's domain directory is created
     */
    public GlassFishProvisioner(GlassFishInstallation installation, Path domainsDir) {
        this(installation, domainsDir, List.of());
    }

    /**
     * @param jvmOptions extra options for the server JVM, e.g. the application's {@code -Dname=value} settings
     */
    public GlassFishProvisioner(GlassFishInstallation installation, Path domainsDir, List<String> jvmOptions) {
        this(installation, domainsDir, jvmOptions, JdbcPoolSettings.MAX_WAIT_MILLIS);
    }

    /**
     * @param jvmOptions    extra options for the server JVM, e.g. the application's {@code -Dname=value} settings
     * @param jdbcMaxWaitMs how long a request waits for a pooled JDBC connection (max-wait-time-in-millis)
     */
    public GlassFishProvisioner(GlassFishInstallation installation, Path domainsDir, List<String> jvmOptions,
            long jdbcMaxWaitMs) {
        this.installation = Objects.requireNonNull(installation, "installation");
        this.domainsDir = Objects.requireNonNull(domainsDir, "domainsDir");
        this.jvmOptions = List.copyOf(jvmOptions);
        this.jdbcMaxWaitMs = jdbcMaxWaitMs;
    }

    @Override
    public String kind() {
        return "glassfish";
    }

    @Override
    public synchronized RunningNode start(NodeSpec spec) throws ProvisioningException {
        if (server != null) {
            throw new IllegalStateException("this provisioner already runs node " + server.name());
        }
        JdbcPoolSettings pool = poolFor(spec);
        Path deployDir = domainsDir.resolve(spec.name() + "-deploy");
        Path war;
        Path resources;
        try {
            Files.createDirectories(deployDir);
            war = ResourceMapping.mapped(spec.warPath(), TRADE_DATASOURCE, deployDir.resolve(spec.warPath().getFileName()));
            resources = Files.writeString(deployDir.resolve("trade-resources.xml"), pool.resourcesXml());
        } catch (IOException e) {
            throw new ProvisioningException("cannot prepare the deployment of node " + spec.name() + " in " + deployDir
                    + ": " + e, e);
        }
        server = GlassFishServer.createDomain(installation, domainsDir, spec.name());
        try {
            server.setMaxHeap(spec.heapMb());
            server.addLibraries(spec.extraLibs());
            List<String> options = new ArrayList<>(jvmOptions);
            options.add("-D" + AGENT_CONFIG_PROPERTY + "=" + writeAgentConfig(server));
            server.addJvmOptions(options);
            server.start();
            int httpPort = spec.port() == 0 ? server.defaultHttpPort() : spec.port();
            server.configure(new DomainSettings()
                    .httpListener(LISTEN_ADDRESS, httpPort)
                    .httpWorkers(spec.workerThreads(), spec.acceptQueue())
                    .monitoring()
                    .addResources(resources)
                    .deploy(war, spec.contextPath()));
            return new RunningNode(spec.name(), LISTEN_ADDRESS, httpPort, spec.contextPath());
        } catch (ProvisioningException | RuntimeException e) {
            stop();
            throw e;
        }
    }

    /** The running domain, for callers that need asadmin or the server log; null when stopped. */
    public synchronized GlassFishServer server() {
        return server;
    }

    @Override
    public synchronized void stop() {
        if (server != null) {
            server.stop();
            server = null;
        }
    }

    /** The agent mappings pinned to this node's listener and pool, in the domain's config directory. */
    private static Path writeAgentConfig(GlassFishServer server) throws ProvisioningException {
        Path file = server.domainDir().resolve("config/loadwise-agent.properties");
        try {
            return Files.writeString(file, AgentMappingPins.properties(DomainSettings.HTTP_LISTENER, TRADE_POOL));
        } catch (IOException e) {
            throw new ProvisioningException("cannot write the agent configuration " + file + ": " + e, e);
        }
    }

    JdbcPoolSettings poolFor(NodeSpec spec) {
        return new JdbcPoolSettings(TRADE_POOL, TRADE_DATASOURCE, spec.dbUrl(), spec.dbUser(), spec.dbPassword(),
                spec.jdbcPool(), jdbcMaxWaitMs);
    }
}
