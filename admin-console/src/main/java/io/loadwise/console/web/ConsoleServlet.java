package io.loadwise.console.web;

import io.loadwise.console.api.Incident;
import io.loadwise.console.auth.LoginGuard;
import io.loadwise.console.auth.RequestPaths;
import io.loadwise.console.replicas.PeerFigures;
import io.loadwise.dispatcher.control.ClusterControl;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's pages, server-rendered: routes a path to its page. {@link io.loadwise.console.auth.ConsoleAuthFilter}
 * has already checked the session and, for POSTs, the CSRF token.
 */
public final class ConsoleServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(ConsoleServlet.class);

    private final transient LoginPage login;
    private final transient OverviewPage overview;
    private final transient ClustersPage clusters;
    private final transient ListenersPage listeners;
    private final transient MetricsPage metrics;
    private final transient LogsPage logs;
    private final transient ReplicasPage replicas;
    private final transient JvmPage jvm = new JvmPage();
    private final transient RequestsPage requests = new RequestsPage();
    private final transient DocsPage docs = new DocsPage();
    private final transient CapacityPage capacity = new CapacityPage();

    public ConsoleServlet(ClusterControl control, LoginGuard guard, PeerFigures peers) {
        this.login = new LoginPage(guard);
        this.overview = new OverviewPage(control);
        this.clusters = new ClustersPage(control);
        this.listeners = new ListenersPage(control);
        this.metrics = new MetricsPage(control);
        this.logs = new LogsPage(control);
        this.replicas = new ReplicasPage(control, peers);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = RequestPaths.normalised(request);
        request.setCharacterEncoding("UTF-8");
        try {
            if (!route(request.getMethod(), path, request, response)) {
                Layout.write(request, response, 404, "Not found", "", "<h1>Not found</h1><p>No page at <code>"
                        + Html.text(path) + "</code>. <a href=\"/\">Go to the overview</a>.</p>");
            }
        } catch (RuntimeException e) {
            // The exception's text stays in the log: the page shows only an id to find it by.
            String incident = Incident.log(log, "console: " + request.getMethod() + " " + path, e);
            if (response.isCommitted()) {
                return;
            }
            response.resetBuffer();
            Layout.write(request, response, 500, "Error", "", "<h1>Something went wrong</h1><p class=\"error\" "
                    + "id=\"incident\">This page failed unexpectedly: incident <code>" + incident + "</code>.</p>"
                    + "<p>The dispatcher log has the details under this id. <a href=\"/\">Go to the overview</a>.</p>");
        }
    }

    private boolean route(String method, String path, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        boolean get = method.equals("GET") || method.equals("HEAD");
        boolean post = method.equals("POST");
        if (get && path.startsWith("/static/")) {
            StaticFiles.serve(response, path.substring("/static/".length()));
            return true;
        }
        if (get && (path.equals("/docs") || path.startsWith("/docs/"))) {
            docs.get(request, response, path.substring("/docs".length()));
            return true;
        }
        switch (path) {
            case "/login" -> {
                if (get) {
                    login.get(request, response);
                } else if (post) {
                    login.post(request, response);
                } else {
                    return false;
                }
            }
            case "/logout" -> {
                if (!post) {
                    return false;
                }
                login.logout(request, response);
            }
            case "/", "/overview" -> {
                if (!get) {
                    return false;
                }
                overview.get(request, response);
            }
            default -> {
                return get ? routeGet(path, request, response) : post && routePost(path, request, response);
            }
        }
        return true;
    }

    private boolean routeGet(String path, HttpServletRequest request, HttpServletResponse response) throws IOException {
        switch (path) {
            case "/clusters" -> clusters.list(request, response);
            case "/clusters/new" -> clusters.newForm(request, response);
            case "/clusters/edit" -> clusters.editForm(request, response);
            case "/listeners" -> listeners.list(request, response);
            case "/graphs" -> metrics.get(request, response);
            case "/replicas" -> replicas.get(request, response);
            case "/requests" -> requests.get(request, response);
            case "/logs" -> logs.list(request, response);
            case "/logs/view" -> logs.view(request, response);
            case "/logs/download" -> logs.download(request, response);
            case "/jvm" -> jvm.get(request, response);
            case "/capacity" -> capacity.get(request, response);
            case "/capacity/chart.png" -> capacity.chart(request, response);
            default -> {
                return false;
            }
        }
        return true;
    }

    private boolean routePost(String path, HttpServletRequest request, HttpServletResponse response) throws IOException {
        switch (path) {
            case "/clusters/save" -> clusters.save(request, response);
            case "/clusters/delete" -> clusters.delete(request, response);
            case "/clusters/policy" -> clusters.switchPolicy(request, response);
            case "/clusters/node" -> clusters.node(request, response);
            case "/listeners/routes" -> listeners.saveRoutes(request, response);
            default -> {
                return false;
            }
        }
        return true;
    }
}
