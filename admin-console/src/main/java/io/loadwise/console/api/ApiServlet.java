package io.loadwise.console.api;

import io.loadwise.console.replicas.PeerFigures;
import io.loadwise.console.replicas.PeerSeries;
import io.loadwise.console.store.MetricStores;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ConfigConflictException;
import io.loadwise.dispatcher.control.ConfigUnavailableException;
import io.loadwise.dispatcher.control.RegistrationRefusedException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.catalina.connector.ClientAbortException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST API's single entry point: matches the path against the routes, answers 404 and 405 itself,
 * runs the handler and turns its exceptions into JSON errors. The handlers live in one class per
 * resource; this class only routes.
 */
public final class ApiServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(ApiServlet.class);

    private final transient List<Route> routes;

    /**
     * @param stores the metric stores the graph and series endpoints read
     * @param peers how {@code /api/replicas/figures} and the replica series ask the other replicas
     */
    public ApiServlet(ClusterControl control, MetricStores stores, PeerFigures peers) {
        this(control, stores, peers, java.time.Clock.systemUTC());
    }

    /** @param clock the registration rate limit's */
    public ApiServlet(ClusterControl control, MetricStores stores, PeerFigures peers, java.time.Clock clock) {
        PoliciesResource policies = new PoliciesResource(control);
        ClustersResource clusters = new ClustersResource(control);
        StatsResource stats = new StatsResource(control);
        PolicyResource policy = new PolicyResource(control);
        NodeResource nodes = new NodeResource(control);
        NodeMetricsResource nodeMetrics = new NodeMetricsResource(control);
        GraphsResource graphs = new GraphsResource(control, stores);
        MetricStoresResource storeUsage = new MetricStoresResource(stores);
        TracingResource tracing = new TracingResource(control);
        RequestsResource requests = new RequestsResource(control);
        PrometheusResource prometheus = new PrometheusResource(control);
        ReloadResource reload = new ReloadResource(control);
        ListenersResource listeners = new ListenersResource(control);
        RateLimitsResource rateLimits = new RateLimitsResource(control);
        ReplicaFiguresResource replicaFigures = new ReplicaFiguresResource(control, peers);
        RegistrationsResource registrations = new RegistrationsResource(control, clock);
        ReplicaGraphsResource replicaGraphs = new ReplicaGraphsResource(control, graphs, new PeerSeries(peers));
        this.routes = List.of(
                new Route("/api/policies", Map.of("GET", policies::list)),
                new Route("/api/clusters", Map.of("GET", clusters::list, "POST", clusters::create)),
                new Route("/api/clusters/{}",
                        Map.of("GET", clusters::get, "PUT", clusters::replace, "DELETE", clusters::delete)),
                new Route("/api/clusters/{}/stats", Map.of("GET", stats::get)),
                new Route("/api/clusters/{}/policy", Map.of("GET", policy::get, "PUT", policy::put)),
                new Route("/api/clusters/{}/nodes/{}", Map.of("GET", nodes::get, "PUT", nodes::put)),
                new Route("/api/clusters/{}/nodes/{}/metrics", Map.of("GET", nodeMetrics::get)),
                new Route("/api/clusters/{}/registrations", Map.of("POST", registrations::register)),
                new Route("/api/clusters/{}/registrations/{}", Map.of("DELETE", registrations::deregister)),
                new Route("/api/clusters/{}/graphs", Map.of("GET", graphs::listCluster)),
                new Route("/api/clusters/{}/graphs/{}", Map.of("GET", graphs::clusterGraph)),
                new Route("/api/clusters/{}/series/{}", Map.of("GET", graphs::clusterSeries)),
                new Route("/api/clusters/{}/replicas/series/{}", Map.of("GET", replicaGraphs::series)),
                new Route("/api/clusters/{}/replicas/graphs/{}", Map.of("GET", replicaGraphs::graph)),
                new Route("/api/clusters/{}/nodes/{}/graphs", Map.of("GET", graphs::listNode)),
                new Route("/api/clusters/{}/nodes/{}/graphs/{}", Map.of("GET", graphs::nodeGraph)),
                new Route("/api/clusters/{}/nodes/{}/series/{}", Map.of("GET", graphs::nodeSeries)),
                new Route("/api/listeners", Map.of("GET", listeners::list, "POST", listeners::create)),
                new Route("/api/listeners/{}",
                        Map.of("GET", listeners::get, "PUT", listeners::replace, "DELETE", listeners::delete)),
                new Route("/api/listeners/{}/routes", Map.of("GET", listeners::routes, "PUT", listeners::replaceRoutes)),
                new Route("/api/rate-limits", Map.of("GET", rateLimits::list, "PUT", rateLimits::replaceAll)),
                new Route("/api/rate-limits/{}",
                        Map.of("GET", rateLimits::get, "PUT", rateLimits::put, "DELETE", rateLimits::delete)),
                new Route("/api/metrics/stores", Map.of("GET", storeUsage::get)),
                new Route("/api/tracing", Map.of("GET", tracing::get)),
                new Route("/api/requests", Map.of("GET", requests::list)),
                new Route("/api/reload", Map.of("POST", reload::reload)),
                new Route("/api/replicas", Map.of("GET", reload::replicas)),
                new Route("/api/replicas/figures", Map.of("GET", replicaFigures::all)),
                new Route("/api/figures", Map.of("GET", replicaFigures::own)),
                new Route("/metrics", Map.of("GET", prometheus::scrape)));
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        List<String> segments = segments(path);
        for (Route route : routes) {
            List<String> params = route.match(segments);
            if (params == null) {
                continue;
            }
            Handler handler = route.handler(request.getMethod());
            if (handler == null) {
                response.setHeader("Allow", route.allowedMethods());
                Responses.writeError(response, new ApiException(405,
                        "method " + request.getMethod() + " not allowed on " + path + "; allowed: " + route.allowedMethods()));
                return;
            }
            run(handler, new ApiCall(request, params), path, request, response);
            return;
        }
        Responses.writeError(response, ApiException.notFound("no such resource: " + path));
    }

    private static void run(Handler handler, ApiCall call, String path, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        Reply reply;
        try {
            reply = handler.handle(call);
        } catch (ApiException e) {
            Responses.writeError(response, e);
            return;
        } catch (ConfigValidationException e) {
            Responses.writeError(response, new ApiException(400, "invalid configuration", e.errors()));
            return;
        } catch (RegistrationRefusedException e) {
            Responses.writeError(response, new ApiException(e.status(), e.getMessage(), e.details()));
            return;
        } catch (ConfigConflictException e) {
            Responses.writeError(response, new ApiException(409, e.getMessage()));
            return;
        } catch (ConfigUnavailableException e) {
            Responses.writeError(response, new ApiException(503, e.getMessage()));
            return;
        } catch (IllegalArgumentException e) {
            // The control layer's way of refusing a value (an unknown policy id, a weight below 1).
            Responses.writeError(response, ApiException.badRequest(e.getMessage()));
            return;
        } catch (ClientAbortException e) {
            throw e;
        } catch (RuntimeException | IOException e) {
            // Unexpected: the text stays in the log, the client gets an id to quote.
            String incident = Incident.log(log, "admin API: " + request.getMethod() + " " + path, e);
            Responses.writeError(response, new ApiException(500, Incident.message(incident)));
            return;
        }
        if (reply.location() != null) {
            response.setHeader("Location", reply.location());
        }
        Responses.write(response, reply.status(), reply.body());
    }

    /** {@code /api/clusters/} and {@code /api/clusters} are the same resource. */
    private static List<String> segments(String path) {
        String trimmed = path.startsWith("/") ? path.substring(1) : path;
        if (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return Arrays.asList(trimmed.split("/", -1));
    }
}
