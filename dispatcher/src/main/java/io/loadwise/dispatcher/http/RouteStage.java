package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.netty.handler.codec.http.HttpRequest;

/**
 * The route stage of the L7 request path: after the client codec, before the filters and node
 * acquisition, it names the cluster a request goes to. Today every listener serves one cluster
 * ({@link #toCluster}); a route table implements this interface without the request path changing.
 * Called on the client connection's event loop for every request head: it must not block.
 */
@FunctionalInterface
public interface RouteStage {

    /** The route of {@code request} (its head; the body has not been read), or {@code null}: no route, 404. */
    Route route(HttpRequest request);

    /** Every request to the one cluster of the listener. */
    static RouteStage toCluster(VirtualCluster cluster) {
        Route only = new Route(cluster);
        return request -> only;
    }
}
