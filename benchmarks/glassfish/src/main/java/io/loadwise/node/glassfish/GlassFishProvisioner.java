package io.loadwise.node.glassfish;

import io.loadwise.node.provision.NodeProvisioner;
import io.loadwise.node.provision.NodeSpec;
import io.loadwise.node.provision.ProvisioningException;
import io.loadwise.node.provision.RunningNode;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Provisions a node as a fresh GlassFish 7 domain: the spec's heap and server-wide jars before the first
 * start, then HTTP listener (127.0.0.1), worker threads and queue, monitoring and the {@code jdbc/TradeDB}
 * pool live through asadmin, then the WAR.
 */
public final class GlassFishProvisioner implements NodeProvisioner {

    /** JNDI name the trade app's resource-ref resolves to. */
    public static final String TRADE_DATASOURCE = "jdbc/TradeDB";
    /** Pool name; the agent finds its statistics under {@code resources/TradePool}. */
    public static final String TRADE_POOL = "TradePool";
    static final String LISTEN_ADDRESS = "127.0.0.1";

    private final GlassFishInstallation installation;
    private final Path domainsDir;
    private GlassFishServer server;

    /**
     * @param installation the unpacked distribution to run
     * @param domainsDir   where the node's domain directory is created
     */
    public GlassFishProvisioner(GlassFishInstallation installation, Path domainsDir) {
        this.installation = Objects.requireNonNull(installation, "installation");
        this.domainsDir = Objects.requireNonNull(domainsDir, "domainsDir");
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
        server = GlassFishServer.createDomain(installation, domainsDir, spec.name());
        try {
            server.setMaxHeap(spec.heapMb());
            server.addLibraries(spec.extraLibs());
            server.start();
            int httpPort = spec.port() == 0 ? server.defaultHttpPort() : spec.port();
            server.configure(settingsFor(spec, httpPort));
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

    static DomainSettings settingsFor(NodeSpec spec, int httpPort) {
        return new DomainSettings()
                .httpListener(LISTEN_ADDRESS, httpPort)
                .httpWorkers(spec.workerThreads(), spec.acceptQueue())
                .monitoring()
                .jdbcPool(new JdbcPoolSettings(TRADE_POOL, TRADE_DATASOURCE, spec.dbUrl(), spec.dbUser(),
                        spec.dbPassword(), spec.jdbcPool()))
                .deploy(spec.warPath(), spec.contextPath());
    }
}
