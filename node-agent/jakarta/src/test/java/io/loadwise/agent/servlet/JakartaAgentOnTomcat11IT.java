package io.loadwise.agent.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.tomcat.AgentOnTomcatContract;
import io.loadwise.wire.FilterMetric;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.naming.InitialContext;
import javax.sql.DataSource;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.Test;

/** The shaded jakarta agent JAR on a real embedded Tomcat 11 (Servlet 6). */
class JakartaAgentOnTomcat11IT extends AgentOnTomcatContract {

    /** Creates a session, as any stateful page would. */
    public static final class SessionServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            req.getSession(true).setAttribute("user", "alice");
            resp.getWriter().write("session");
        }
    }

    /** Borrows a pooled JDBC connection (and a worker thread) until the test releases it. */
    public static final class HoldDatabaseServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            try {
                DataSource ds = (DataSource) new InitialContext().lookup("java:comp/env/" + DATASOURCE);
                try (Connection c = ds.getConnection()) {
                    c.createStatement().execute("SELECT 1");
                    DB_HELD.countDown();
                    DB_RELEASE.await(30, TimeUnit.SECONDS);
                }
                resp.getWriter().write("released");
            } catch (Exception e) {
                throw new IOException(e);
            }
        }
    }

    /** Requests started asynchronously and not yet completed. */
    static final ConcurrentLinkedQueue<AsyncContext> PENDING = new ConcurrentLinkedQueue<>();
    static final CountDownLatch ASYNC_STARTED = new CountDownLatch(2);

    /** Starts async processing and returns the thread; the test completes the request later. */
    public static final class AsyncServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            AsyncContext async = req.startAsync();
            async.setTimeout(30_000);
            PENDING.add(async);
            ASYNC_STARTED.countDown();
        }
    }

    @Override
    protected void addTestServlets(Context context) {
        Tomcat.addServlet(context, "session", new SessionServlet()).addMapping("/session");
        Tomcat.addServlet(context, "hold-db", new HoldDatabaseServlet()).addMapping("/hold-db");
        var async = Tomcat.addServlet(context, "async", new AsyncServlet());
        async.setAsyncSupported(true);
        async.addMapping("/async");
    }

    /**
     * An asynchronous request is in flight until its AsyncContext completes, not until its first thread
     * leaves the filter. The metrics poll may count itself once, so two held requests must show as two.
     */
    @Test
    void asynchronousRequestsCountUntilTheyComplete() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        List<CompletableFuture<HttpResponse<String>>> requests = List.of(
                http.sendAsync(HttpRequest.newBuilder(URI.create(root() + "/async")).build(), HttpResponse.BodyHandlers.ofString()),
                http.sendAsync(HttpRequest.newBuilder(URI.create(root() + "/async")).build(), HttpResponse.BodyHandlers.ofString()));
        assertTrue(ASYNC_STARTED.await(10, TimeUnit.SECONDS), "async servlet never ran");
        String inFlight = FilterMetric.APP_RQST_INFLIGHT.metricName();
        pollMetrics(d -> d.metrics().getOrDefault(inFlight, 0.0) >= 2);
        for (AsyncContext async; (async = PENDING.poll()) != null; ) {
            async.getResponse().getWriter().write("done");
            async.complete();
        }
        for (CompletableFuture<HttpResponse<String>> request : requests) {
            assertEquals("done", request.get(10, TimeUnit.SECONDS).body());
        }
        pollMetrics(d -> d.metrics().getOrDefault(inFlight, -1.0) == 0);
    }
}
