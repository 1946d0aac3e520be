package io.loadwise.console;

import io.loadwise.console.api.ApiErrorReportValve;
import io.loadwise.console.api.ApiServlet;
import io.loadwise.console.replicas.PeerFigures;
import io.loadwise.console.api.AuthFilter;
import io.loadwise.console.auth.LoginGuard;
import io.loadwise.console.web.ConsoleWeb;
import io.loadwise.console.store.MetricStores;
import io.loadwise.dispatcher.control.ClusterControl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.session.StandardManager;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.apache.tomcat.util.modeler.Registry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Embedded Tomcat serving the REST API and the web console. Everything is registered programmatically: no web.xml, no
 * annotation or JAR scanning, no JSP, no JMX registry, so it starts in well under a second. Tomcat's own
 * files (work directory) live in a temporary directory removed on {@link #close()}.
 */
public final class AdminServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AdminServer.class);

    /**
     * Tomcat logs through java.util.logging. Held strongly: JUL keeps loggers weakly, and a collected
     * logger would forget its level.
     */
    private static final java.util.logging.Logger TOMCAT_JUL = java.util.logging.Logger.getLogger("org.apache");

    /**
     * Logs a failed start (port in use) as SEVERE with a long stack trace; the failure is thrown to the
     * caller with its root cause instead, so this logger is quiet while Tomcat starts.
     */
    private static final java.util.logging.Logger TOMCAT_LIFECYCLE_JUL =
            java.util.logging.Logger.getLogger("org.apache.catalina.util.LifecycleBase");

    static {
        TOMCAT_JUL.setLevel(Level.WARNING);
        Registry.disableRegistry();
    }

    private final Tomcat tomcat;
    private final Connector connector;
    private final Path baseDir;
    private final PeerFigures peers;

    private AdminServer(Tomcat tomcat, Connector connector, Path baseDir, PeerFigures peers) {
        this.tomcat = tomcat;
        this.connector = connector;
        this.baseDir = baseDir;
        this.peers = peers;
    }

    /**
     * Binds {@code listen} (port 0 picks a free port) and starts serving.
     *
     * @param stores the metric stores behind the graph, series and Prometheus endpoints
     *
     * @throws IOException when the address cannot be bound
     */
    public static AdminServer start(InetSocketAddress listen, ClusterControl control, String token,
            MetricStores stores, LoginGuard login) throws IOException {
        return start(listen, control, token, null, stores, login);
    }

    /** @param registrationToken the token nodes register with, or {@code null} (see {@link AuthFilter}) */
    public static AdminServer start(InetSocketAddress listen, ClusterControl control, String token,
            String registrationToken, MetricStores stores, LoginGuard login) throws IOException {
        Path baseDir = Files.createTempDirectory("loadwise-admin-");
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());

        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(listen.getPort());
        connector.setProperty("address", listen.getHostString());
        connector.setProperty("maxThreads", "16");
        connector.setProperty("minSpareThreads", "1");
        connector.setProperty("server", "loadwise");
        connector.setXpoweredBy(false);
        tomcat.setConnector(connector);

        // Errors Tomcat answers itself (invalid URIs and the like) come back in the API's JSON shape too.
        StandardHost host = (StandardHost) tomcat.getHost();
        host.setErrorReportValveClass(ApiErrorReportValve.class.getName());
        host.setAutoDeploy(false);

        StandardContext context = (StandardContext) tomcat.addContext("", baseDir.toString());
        // No web application is loaded, so there is nothing for the leak checks to clear on stop; they
        // would only warn about --add-opens.
        context.setClearReferencesThreadLocals(false);
        context.setClearReferencesRmiTargets(false);
        // Console sessions live in memory only: no session persistence across restarts, which would use
        // Java serialization. The API itself stays stateless (bearer token) unless called from the console.
        StandardManager sessions = new StandardManager();
        sessions.setPathname(null);
        context.setManager(sessions);
        // The console and the API ask the other replicas for their figures with this replica's token.
        PeerFigures peers = PeerFigures.withDefaults(token);
        ConsoleWeb.install(context, control, login, peers);
        AuthFilter bearer = new AuthFilter(token, registrationToken, java.time.Clock.systemUTC());
        // Tomcat's background thread fires PERIODIC_EVENT every 10 s: the rate-limited failure logs write
        // their "N more failures" summaries then, even when no further failure comes.
        context.addLifecycleListener(event -> {
            if (Lifecycle.PERIODIC_EVENT.equals(event.getType())) {
                login.summariseFailures();
                bearer.summariseFailures();
            }
        });
        FilterDef auth = new FilterDef();
        auth.setFilterName("auth");
        auth.setFilter(bearer);
        context.addFilterDef(auth);
        FilterMap authMap = new FilterMap();
        authMap.setFilterName("auth");
        authMap.addURLPatternDecoded("/api/*");
        authMap.addURLPatternDecoded("/metrics");
        context.addFilterMap(authMap);
        Tomcat.addServlet(context, "api", new ApiServlet(control, stores, peers));
        context.addServletMappingDecoded("/api/*", "api");
        context.addServletMappingDecoded("/metrics", "api");

        AdminServer server = new AdminServer(tomcat, connector, baseDir, peers);
        TOMCAT_LIFECYCLE_JUL.setLevel(Level.OFF);
        try {
            tomcat.start();
        } catch (LifecycleException e) {
            server.close();
            throw new IOException("admin API: cannot start on " + describe(listen) + ": " + rootMessage(e), e);
        } finally {
            TOMCAT_LIFECYCLE_JUL.setLevel(null);
        }
        if (connector.getState() != LifecycleState.STARTED || connector.getLocalPort() <= 0) {
            server.close();
            throw new IOException("admin API: cannot bind " + describe(listen) + " (address in use or not local?)");
        }
        String shownHost = listen.getHostString().indexOf(':') >= 0 ? "[" + listen.getHostString() + "]"
                : listen.getHostString();
        log.info("admin console on http://{}:{}/ (REST API under /api)", shownHost, server.port());
        return server;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.toString() : root.getMessage();
    }

    private static String describe(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }

    /** The port actually bound. */
    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        peers.close(); // first: its threads were started from requests, Tomcat would report them as leaked
        try {
            if (tomcat.getServer().getState().isAvailable()) {
                tomcat.stop();
            }
            tomcat.destroy();
        } catch (LifecycleException e) {
            log.warn("admin API: error while stopping Tomcat", e);
        }
        deleteRecursively(baseDir);
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            log.debug("admin API: could not remove {}: {}", dir, e.toString());
        }
    }
}
