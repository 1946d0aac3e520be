package io.loadwise.dispatcher.control;

import java.util.List;

/**
 * One of {@code listeners[]} as it runs: where it listens, its route table with each route's counters, and the
 * connections it refused because one client held {@code maxConnectionsPerClient}.
 *
 * @param bound the address it bound ({@code host:port}), or null when it could not bind
 * @param connections client connections open now
 * @param proxyProtocol PROXY header outcomes, or null when the listener reads none
 * @param http3 what its HTTP/3 (QUIC) side counted, or null when it serves none
 */
public record RoutedListenerStatus(String name, String listen, String bound, boolean tls, int connections,
        long rejectedPerClient, List<RouteStatus> routes, ProxyProtocolCounts proxyProtocol,
        io.loadwise.dispatcher.metrics.QuicCounts http3) {

    /**
     * PROXY protocol headers on a listener: applied, and connections closed because a header came from an
     * untrusted source, was not a valid header of an accepted version, or did not arrive in time.
     */
    public record ProxyProtocolCounts(long accepted, long untrusted, long invalid, long timeout) {
    }

    public RoutedListenerStatus {
        routes = List.copyOf(routes);
    }

    /**
     * One route: what it does and the requests it took, by status class.
     *
     * @param action {@code cluster}, {@code split}, {@code redirect} or {@code respond}
     * @param targets the clusters it leads to (empty for redirect and respond)
     * @param byStatusClass requests answered 1xx, 2xx, 3xx, 4xx, 5xx (499: the client left, counted as 4xx)
     */
    public record RouteStatus(int index, String name, String action, List<String> targets, long requests,
            List<Long> byStatusClass) {

        public RouteStatus {
            targets = List.copyOf(targets);
            byStatusClass = List.copyOf(byStatusClass);
        }
    }
}
