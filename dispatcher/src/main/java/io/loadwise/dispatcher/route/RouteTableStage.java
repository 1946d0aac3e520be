package io.loadwise.dispatcher.route;

import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.http.HttpFilter;
import io.loadwise.dispatcher.http.HttpFilters;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.http.RequestSource;
import io.loadwise.dispatcher.http.RouteCounter;
import io.loadwise.dispatcher.http.RouteStage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * The route stage of a listener of {@code listeners[]}: its {@link RouteTable} and, per route, what the request
 * path gets: the target cluster's {@link HttpProxyServer}, the route's filters and its counter. Immutable; built
 * off the event loops from one configuration and the clusters running with it, and swapped whole on reload
 * ({@link io.loadwise.dispatcher.http.HttpListener#setRoutes}), so a request in flight finishes on the table it
 * matched.
 */
public final class RouteTableStage implements RouteStage {

    private final RouteTable table;
    /** Per route index: the request path's route (forwarding routes, and local answers with a null target). */
    private final io.loadwise.dispatcher.http.Route[] routes;
    /** Per route index, for a split: the request path's route of each of its clusters; null otherwise. */
    private final io.loadwise.dispatcher.http.Route[][] splits;
    /** The listener asks for client certificates: a Host naming another SNI domain is answered 421. */
    private final boolean strictSni;

    /**
     * @param clusters the running HTTP clusters by name; every cluster the routes name is there (validated)
     * @param limits the running rate limits by name
     * @param counters per route name: kept across reloads by the caller, so counters survive a table swap
     */
    public RouteTableStage(ListenerConfig listener, Map<String, HttpProxyServer> clusters,
            Map<String, ClientRateLimit> limits, Map<String, RouteCounter> counters, LongSupplier clock) {
        this.table = RouteTable.compile(listener.name(), listener.routesOrEmpty());
        List<Route> compiled = table.routes();
        this.routes = new io.loadwise.dispatcher.http.Route[compiled.size()];
        this.splits = new io.loadwise.dispatcher.http.Route[compiled.size()][];
        for (Route route : compiled) {
            HttpFilters filters = RouteFilters.of(route, limits, clock);
            RouteCounter counter = counters.computeIfAbsent(route.name(), RouteCounter::new);
            int i = route.index();
            if (route.action() instanceof RouteAction.Forward forward) {
                routes[i] = new io.loadwise.dispatcher.http.Route(clusters.get(forward.cluster()), filters, counter,
                        route.name());
            } else if (route.action() instanceof RouteAction.Split split) {
                splits[i] = split.clusters().stream()
                        .map(c -> new io.loadwise.dispatcher.http.Route(clusters.get(c), filters, counter, route.name()))
                        .toArray(io.loadwise.dispatcher.http.Route[]::new);
                routes[i] = splits[i][0];
            } else {
                routes[i] = new io.loadwise.dispatcher.http.Route(null, filters, counter, route.name());
            }
        }
        this.strictSni = listener.tls() != null && requiresClientCertificate(listener);
    }

    private static boolean requiresClientCertificate(ListenerConfig listener) {
        String auth = listener.tls().clientAuth();
        return "require".equals(auth) || (auth == null && listener.tls().clientCa() != null);
    }

    @Override
    public io.loadwise.dispatcher.http.Route route(HttpRequest request, RequestSource source) {
        RequestTarget target = RequestTarget.of(request);
        if (target.problem() != null) {
            return new io.loadwise.dispatcher.http.Route(null, answering(HttpResponseStatus.BAD_REQUEST,
                    target.problem()));
        }
        if (strictSni && source.serverName() != null && !sniCovers(source.serverName(), target.authority())) {
            return new io.loadwise.dispatcher.http.Route(null, answering(HttpResponseStatus.MISDIRECTED_REQUEST,
                    "this connection's certificate was negotiated for another host"));
        }
        Route matched = table.match(target);
        if (matched == null) {
            return null;
        }
        io.loadwise.dispatcher.http.Route[] split = splits[matched.index()];
        return split == null ? routes[matched.index()] : pick(split, (RouteAction.Split) matched.action(), request);
    }

    /** A session pinned to a node of one of the split's clusters stays there; others go by weight. */
    private static io.loadwise.dispatcher.http.Route pick(io.loadwise.dispatcher.http.Route[] targets,
            RouteAction.Split split, HttpRequest request) {
        for (io.loadwise.dispatcher.http.Route target : targets) {
            if (target.target().pins(request)) {
                return target;
            }
        }
        String cluster = split.pick(ThreadLocalRandom.current().nextInt(split.totalWeight()));
        return targets[split.clusters().indexOf(cluster)];
    }

    private static boolean sniCovers(String serverName, CharSequence authority) {
        int end = HostName.end(authority);
        return HostName.equalsIgnoreCase(HostName.canonical(serverName), authority, 0, end);
    }

    private static HttpFilters answering(HttpResponseStatus status, String reason) {
        HttpFilter answer = (request, source) -> HttpFilter.Decision.respond(LocalAnswer.error(status, reason));
        return new HttpFilters(List.of(answer));
    }

    /** The compiled table, for the API and tests. */
    public RouteTable table() {
        return table;
    }
}
