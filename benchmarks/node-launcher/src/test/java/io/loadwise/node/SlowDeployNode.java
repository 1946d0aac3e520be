package io.loadwise.node;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.ValveBase;

/**
 * An embedded Tomcat whose application deploys slowly, as a real one does: the connector opens first and
 * answers 404 to everything (no context is mapped), while the application's {@code ServletContextListener}
 * holds its deployment until the test calls {@link #finishDeploying()}. The application is the one
 * {@link AgentReadmissionIT.AgentNode} runs (the real agent and a servlet answering the node's name).
 *
 * <p>A valve on the host sees every request, mapped or not, and counts those that arrived while the application
 * was not deployed (Tomcat mapped them to no context): the agent path's (the dispatcher's readiness probes) and
 * any other (client requests, which must be 0).
 */
final class SlowDeployNode implements AutoCloseable {

    private static final String AGENT_PATH = "/loadwise-agent/";

    private final Tomcat tomcat = new Tomcat();
    private final CountDownLatch deploy = new CountDownLatch(1);
    private final StandardContext context;
    private final Thread deployer;
    private final AtomicInteger agentRequests = new AtomicInteger();
    private final AtomicInteger applicationRequests = new AtomicInteger();
    private final Map<Integer, Long> statuses = new TreeMap<>();

    SlowDeployNode(Path base, String name, int port) throws Exception {
        tomcat.setBaseDir(base.toString());
        tomcat.setHostname("127.0.0.1");
        tomcat.setPort(port);
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        tomcat.getHost().getPipeline().addValve(new CountingValve());
        tomcat.start(); // the connector is up; no application yet: 404 to everything
        context = application(base, name);
        // The host is started, so adding the context deploys it at once, on this thread, through the listener;
        // the context is mapped once it has started.
        deployer = new Thread(() -> tomcat.getHost().addChild(context), "deploy-" + name);
        deployer.start();
    }

    private StandardContext application(Path base, String name) throws IOException {
        StandardContext context = new StandardContext();
        context.setName("");
        context.setPath("");
        context.setDocBase(Files.createDirectories(base.resolve("docs")).toString());
        context.addLifecycleListener(new Tomcat.FixContextListener());
        context.addParameter("loadwise.agent.sample.full.ms", "200");
        AgentWebApp.install(context, name);
        // The application's own listener, after the agent's: its contextInitialized is the slow deployment.
        context.addServletContainerInitializer((classes, servletContext) -> servletContext.addListener(
                new SlowListener()), null);
        return context;
    }

    /**
     * Lets the deployment finish and waits until the application is deployed (its context started and
     * mapped).
     *
     * @return when it was ({@link System#nanoTime})
     */
    long finishDeploying() throws InterruptedException {
        deploy.countDown();
        deployer.join(30_000);
        if (deployer.isAlive() || !context.getState().isAvailable()) {
            throw new AssertionError("the application did not deploy within 30 s: " + context.getState());
        }
        return System.nanoTime();
    }

    /** Requests for the agent path that arrived before the application was deployed. */
    int agentRequestsBeforeDeploy() {
        return agentRequests.get();
    }

    /** Any other request that arrived before the application was deployed: a client request. */
    int applicationRequestsBeforeDeploy() {
        return applicationRequests.get();
    }

    /** The statuses of the answers given before the application was deployed, and how many of each. */
    Map<Integer, Long> statusesBeforeDeploy() {
        synchronized (statuses) {
            return new TreeMap<>(statuses);
        }
    }

    @Override
    public void close() throws Exception {
        deploy.countDown();
        tomcat.stop();
        tomcat.destroy();
        deployer.join(30_000);
    }

    /** The application's slow start: blocks until the test lets it finish. */
    private final class SlowListener implements ServletContextListener {
        @Override
        public void contextInitialized(ServletContextEvent event) {
            try {
                if (!deploy.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never let the deployment finish");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Counts what reaches the server while no application is mapped: with its only application still deploying,
     * Tomcat maps a request to no context and answers it 404 itself.
     */
    private final class CountingValve extends ValveBase {
        CountingValve() {
            super(true);
        }

        @Override
        public void invoke(Request request, Response response) throws IOException, ServletException {
            boolean before = request.getContext() == null;
            if (before) {
                if (request.getRequestURI().startsWith(AGENT_PATH)) {
                    agentRequests.incrementAndGet();
                } else {
                    applicationRequests.incrementAndGet();
                }
            }
            getNext().invoke(request, response);
            if (before) {
                synchronized (statuses) {
                    statuses.merge(response.getStatus(), 1L, Long::sum);
                }
            }
        }
    }
}
