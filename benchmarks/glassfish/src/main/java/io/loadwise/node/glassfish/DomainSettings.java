package io.loadwise.node.glassfish;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Settings a running GlassFish applies without a restart, rendered as asadmin commands: the HTTP
 * listener's address and port, the HTTP worker pool and its queue, module monitoring levels, the JDBC
 * pool behind the application's DataSource, and deployments. One asadmin session applies them all, which
 * saves a client JVM start per command.
 */
public final class DomainSettings {

    /** The listener and pool every fresh GlassFish 7 domain has. */
    static final String HTTP_LISTENER = "http-listener-1";
    static final String HTTP_THREAD_POOL = "http-thread-pool";
    /** GlassFish's default min-thread-pool-size, kept unless the maximum is smaller. */
    static final int DEFAULT_MIN_THREADS = 5;
    /**
     * Modules whose statistics the Loadwise agent reads. http-service governs the listener's
     * thread-pool-mon, connection-queue-mon and request-mon MBeans; thread-pool alone does not.
     */
    static final List<String> MONITORED_MODULES =
            List.of("http-service", "thread-pool", "web-container", "jdbc-connection-pool", "jvm");

    private static final String CONFIG = "configs.config.server-config.";
    private static final String LISTENER = CONFIG + "network-config.network-listeners.network-listener."
            + HTTP_LISTENER + ".";
    private static final String THREAD_POOL = CONFIG + "thread-pools.thread-pool." + HTTP_THREAD_POOL + ".";
    private static final String MONITORING = CONFIG + "monitoring-service.module-monitoring-levels.";

    private final List<AsadminCommand> commands = new ArrayList<>();

    /** Binds the HTTP listener to an address and port. */
    public DomainSettings httpListener(String address, int port) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("HTTP port must be between 1 and 65535, got " + port);
        }
        commands.add(AsadminCommand.of("set", LISTENER + "address=" + address));
        commands.add(AsadminCommand.of("set", LISTENER + "port=" + port));
        return this;
    }

    /** At most {@code maxThreads} HTTP workers; at most {@code maxQueue} connections wait for one. */
    public DomainSettings httpWorkers(int maxThreads, int maxQueue) {
        if (maxThreads < 1 || maxQueue < 1) {
            throw new IllegalArgumentException("HTTP workers and queue must be at least 1, got " + maxThreads
                    + " threads and queue " + maxQueue);
        }
        // Minimum first: it must never exceed the maximum, neither the old one nor the new one.
        commands.add(AsadminCommand.of("set",
                THREAD_POOL + "min-thread-pool-size=" + Math.min(DEFAULT_MIN_THREADS, maxThreads)));
        commands.add(AsadminCommand.of("set", THREAD_POOL + "max-thread-pool-size=" + maxThreads));
        commands.add(AsadminCommand.of("set", THREAD_POOL + "max-queue-size=" + maxQueue));
        return this;
    }

    /** Turns on (HIGH) the monitoring modules whose MBeans the Loadwise agent reads. */
    public DomainSettings monitoring() {
        List<String> tokens = new ArrayList<>();
        tokens.add("set");
        for (String module : MONITORED_MODULES) {
            tokens.add(MONITORING + module + "=HIGH");
        }
        commands.add(new AsadminCommand(tokens));
        return this;
    }

    /** Creates the pool and its JNDI resource; connections are opened on demand, up to the maximum. */
    public DomainSettings jdbcPool(JdbcPoolSettings pool) {
        commands.add(AsadminCommand.of("create-jdbc-connection-pool",
                "--datasourceclassname", JdbcPoolSettings.dataSourceClass(pool.url()),
                "--restype", "javax.sql.DataSource",
                "--steadypoolsize", "0",
                "--maxpoolsize", Integer.toString(pool.maxPoolSize()),
                "--maxwait", Integer.toString(JdbcPoolSettings.MAX_WAIT_MILLIS),
                "--property", AsadminCommand.propertyList(pool.properties()),
                pool.poolName()));
        commands.add(AsadminCommand.of("create-jdbc-resource", "--connectionpoolid", pool.poolName(), pool.jndiName()));
        return this;
    }

    /**
     * Deploys a WAR at a context root (e.g. "/trade") after the settings above, in the same asadmin
     * session; the application name is the context root without its slash.
     */
    public DomainSettings deploy(Path war, String contextRoot) {
        if (!contextRoot.matches("/[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("context root must be '/' and one path segment, got '" + contextRoot + "'");
        }
        commands.add(AsadminCommand.of("deploy", "--contextroot", contextRoot, "--name", contextRoot.substring(1),
                war.toAbsolutePath().toString()));
        return this;
    }

    List<AsadminCommand> commands() {
        return List.copyOf(commands);
    }

    /** The commands as an {@code asadmin multimode --file} script. */
    String multimodeScript() {
        StringBuilder script = new StringBuilder();
        for (AsadminCommand command : commands) {
            script.append(command.multimodeLine()).append('\n');
        }
        return script.toString();
    }
}
