package io.loadwise.node.tomcat;

import io.loadwise.node.NodeOptions;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardThreadExecutor;
import org.apache.catalina.session.StandardManager;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.scan.StandardJarScanner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node: an embedded Tomcat with the trade app at {@code /trade}, the capacity knobs on its HTTP
 * workers (a shared Executor) and JDBC pool, and the node name as Engine jvmRoute. Tomcat registers its
 * MBeans (Executor, ThreadPool, Manager, GlobalRequestProcessor, DataSource) in the platform MBean server.
 */
public final class TradeNodeServer implements AutoCloseable {

    public static final String CONTEXT_PATH = "/trade";
    /** The trade app's setting of how long a scenario request holds a JDBC connection (its TradeAppListener). */
    static final String JDBC_HOLD_PARAM = "trade.jdbc.holdMs";
    /** The JMX domain of the node's Tomcat MBeans, e.g. {@code Catalina:type=ThreadPool,name=...}. */
    public static final String JMX_DOMAIN = "Catalina";
    private static final Logger LOG = LoggerFactory.getLogger(TradeNodeServer.class);
    private static final int MIN_SPARE_THREADS = 4;
    /** The shared executor's name: its MBean is {@code Catalina:type=Executor,name=tradeWorkers}. */
    static final String EXECUTOR_NAME = "tradeWorkers";

    private final Tomcat tomcat;
    private final StandardThreadExecutor workers;
    private final Connector connector;
    private final Context context;

    private TradeNodeServer(Tomcat tomcat, StandardThreadExecutor workers, Connector connector, Context context) {
        this.tomcat = tomcat;
        this.workers = workers;
        this.connector = connector;
        this.context = context;
    }

    /**
     * Unpacks the WAR (plus agent JARs) under {@code workDir} and starts Tomcat.
     *
     * @throws LifecycleException when Tomcat or the web application fails to start
     */
    public static TradeNodeServer start(NodeOptions options, Path war, Path workDir)
            throws IOException, LifecycleException {
        Path docBase = WebappUnpacker.unpack(war, workDir.resolve("webapps").resolve("trade"), options.agentJars());

        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(workDir.toAbsolutePath().toString());
        tomcat.enableNaming();
        // Standalone Tomcat's names, so MBeans live in the usual "Catalina" JMX domain (embedded says "Tomcat").
        tomcat.getService().setName(JMX_DOMAIN);
        tomcat.getEngine().setName(JMX_DOMAIN);
        tomcat.getEngine().setJvmRoute(options.name());
        // No JSP engine here; the app needs neither the JSP nor the default servlet.
        tomcat.setAddDefaultWebXmlToWebapp(false);

        // The workers are a shared <Executor>, as an operator's server.xml would declare them, because only
        // its MBean counts waiting requests: without it the agent reports no AMX_CONNS_Q_USED% and the
        // agent-driven policies lose their saturation signal. The connector's own pool would refuse the
        // same way (the same TaskQueue bound) but shows no queue.
        StandardThreadExecutor workers = new StandardThreadExecutor();
        workers.setName(EXECUTOR_NAME);
        workers.setNamePrefix(options.name() + "-exec-");
        workers.setMaxThreads(options.httpThreads());
        workers.setMinSpareThreads(Math.min(MIN_SPARE_THREADS, options.httpThreads()));
        // A bounded request queue, as GlassFish's http-thread-pool has: once every worker is busy and
        // acceptQueue requests wait, Tomcat rejects the next one and closes its connection (the seed's
        // "denied connections"). By default the queue is unbounded and a small node only gets slower.
        workers.setMaxQueueSize(options.acceptQueue());
        tomcat.getService().addExecutor(workers);

        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(options.port());
        connector.setProperty("address", options.bindAddress());
        connector.getProtocolHandler().setExecutor(workers);
        // The kernel's listen backlog stays at Tomcat's default (100): it holds connections the acceptor has
        // not taken yet, and a tiny one drops SYNs whenever the acceptor thread waits for a CPU, which
        // shows up as connect time-outs on every node rather than refusals on the small one.
        tomcat.setConnector(connector);

        Context context = tomcat.addWebapp(CONTEXT_PATH, docBase.toString());
        context.getNamingResources().addResource(TradeDataSourceResource.create(options.dbUrl(), options.jdbcPool(),
                options.jdbcMaxWaitMs()));
        if (options.jdbcHoldMs() > 0) {
            // read once by the trade app's TradeAppListener; a context parameter wins over its system property
            context.addParameter(JDBC_HOLD_PARAM, Long.toString(options.jdbcHoldMs()));
        }
        // Scan only WEB-INF/lib (where the agent is), not the launcher's whole classpath.
        StandardJarScanner scanner = new StandardJarScanner();
        scanner.setScanClassPath(false);
        context.setJarScanner(scanner);
        tomcat.getEngine().setBackgroundProcessorDelay(1);
        if (SessionReplication.requested()) {
            // Only the replication-domains benchmark: sessions copied to partner nodes (DeltaManager).
            SessionReplication.configure(tomcat, context, options.name());
        } else {
            // Sessions live in memory only: no SESSIONS.ser, so nothing is ever Java-deserialized.
            StandardManager manager = new StandardManager();
            manager.setPathname(null);
            // Expire idle sessions within a second or two rather than once a minute (Tomcat's default: every
            // 6th run of a 10 s background task), so a short session timeout frees heap when it says.
            manager.setProcessExpiresFrequency(1);
            context.setManager(manager);
        }

        TradeNodeServer server = new TradeNodeServer(tomcat, workers, connector, context);
        try {
            tomcat.start();
            if (context.getState() != LifecycleState.STARTED) {
                throw new LifecycleException("the trade app failed to start (state " + context.getState()
                        + "); see the log above");
            }
            if (connector.getState() != LifecycleState.STARTED) {
                throw new LifecycleException("the HTTP connector failed to start on " + options.bindAddress() + ":"
                        + options.port());
            }
        } catch (LifecycleException | RuntimeException e) {
            server.close();
            throw e;
        }
        LOG.info("node {} serving {} on {}:{} (worker threads {}, request queue {}, JDBC pool {}, wait <= {} ms,"
                        + " hold {} ms)", options.name(), CONTEXT_PATH, options.bindAddress(), server.port(),
                options.httpThreads(), options.acceptQueue(), options.jdbcPool(), options.jdbcMaxWaitMs(),
                options.jdbcHoldMs());
        return server;
    }

    /** How many requests may wait for a worker before the node refuses more (also its Executor MBean's). */
    int requestQueueLimit() {
        return workers.getMaxQueueSize();
    }

    /** The bound HTTP port (the real one when the options asked for port 0). */
    public int port() {
        return connector.getLocalPort();
    }

    public String contextPath() {
        return context.getPath();
    }

    @Override
    public void close() {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            LOG.warn("Tomcat did not stop cleanly", e);
        }
    }
}
