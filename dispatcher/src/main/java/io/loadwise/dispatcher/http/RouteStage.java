package io.loadwise.dispatcher.http;

import io.netty.handler.codec.http.HttpRequest;

/**
 * The route stage of the L7 request path: after the client codec, before the filters and node acquisition,
 * it names the cluster a request goes to and the filters it passes. A cluster's own port sends every request to
 * it ({@link #toCluster}); a listener of {@code listeners[]} asks its route table (package {@code route}).
 * Called on the client connection's event loop for every request head: it must not block.
 */
@FunctionalInterface
public interface RouteStage {

    /** The route of {@code request} (its head; the body has not been read), or {@code null}: no route, 404. */
    Route route(HttpRequest request, RequestSource source);

    /** Every request to {@code server}'s cluster, through its filters. */
    static RouteStage toCluster(HttpProxyServer server) {
        return (request, source) -> new Route(server, server.filters());
    }
}
