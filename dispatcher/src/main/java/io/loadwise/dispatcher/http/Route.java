package io.loadwise.dispatcher.http;

/**
 * Where the {@link RouteStage} sends a request: the cluster whose nodes serve it ({@code null} when the filters
 * answer every request themselves: a redirect, a fixed response) and the filters it passes on the way.
 *
 * @param counters the route's own request counter, or {@code null}
 * @param name the route's name for the access log ({@code listener/index} when unnamed), or {@code null}: no route of a
 *     table (a cluster's own listener, or a request refused before matching)
 */
public record Route(HttpProxyServer target, HttpFilters filters, RouteCounter counters, String name) {

    public Route(HttpProxyServer target, HttpFilters filters) {
        this(target, filters, null, null);
    }
}
