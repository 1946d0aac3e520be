package io.loadwise.console.api;

import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.RateLimitConfig;
import io.loadwise.dispatcher.config.RouteConfig;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.RateLimitStatus;
import io.loadwise.dispatcher.control.RoutedListenerStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON of one of {@code listeners[]}: its configuration (TLS key passwords masked as on a cluster) and, while it
 * runs, where it is bound and each route's counters. A listener that is configured but not running (it could not
 * bind) has {@code bound} null and zero counters.
 *
 * @param rejectedPerClient connections refused because one client held {@code maxConnectionsPerClient}
 * @param proxyProtocol PROXY header outcomes; absent when the listener reads none
 * @param http3 what its HTTP/3 (QUIC) side counted; absent when it serves none (docs/http3.md)
 */
record ListenerView(String name, Listen listen, boolean tls, int connections, long rejectedPerClient,
        List<RouteView> routes, ListenerConfig config,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        io.loadwise.dispatcher.control.RoutedListenerStatus.ProxyProtocolCounts proxyProtocol,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        io.loadwise.dispatcher.metrics.QuicCounts http3) {

    /** {@code configured} as in the file; {@code bound} the address in use ({@code host:port}), or null. */
    record Listen(String configured, String bound) {
    }

    /**
     * One route with its configuration and counters.
     *
     * @param byStatusClass requests answered per status class ({@code 1xx} … {@code 5xx}; a client that left
     *     counts as 4xx)
     */
    record RouteView(int index, String name, String action, List<String> targets, long requests,
            Map<String, Long> byStatusClass, RouteConfig config) {
    }

    /**
     * A named rate limit: its configuration, its key table and the share this replica enforces ({@code 1/replicas}
     * of {@code requestsPerSecond}).
     *
     * @param tableBytes the key table's memory, approximately
     * @param limited requests answered 429 by this replica
     */
    record RateLimitView(String name, RateLimitConfig config, int replicas, double enforcedRequestsPerSecond,
            int keys, int maxKeys, long tableBytes, long limited) {
    }

    /** Every configured listener, in configuration order. */
    static List<ListenerView> all(ClusterControl control) {
        Map<String, RoutedListenerStatus> running = new LinkedHashMap<>();
        for (RoutedListenerStatus status : control.listenerStatuses()) {
            running.put(status.name(), status);
        }
        List<ListenerView> views = new ArrayList<>();
        for (ListenerConfig config : control.config().listenersOrEmpty()) {
            views.add(of(config, running.get(config.name())));
        }
        return views;
    }

    /** The configured listener with this name, or {@code null}. */
    static ListenerView find(ClusterControl control, String name) {
        for (ListenerView view : all(control)) {
            if (view.name().equals(name)) {
                return view;
            }
        }
        return null;
    }

    static ListenerView of(ListenerConfig config, RoutedListenerStatus status) {
        List<RouteConfig> routeConfigs = config.routesOrEmpty();
        List<RouteView> routes = new ArrayList<>();
        for (int i = 0; i < routeConfigs.size(); i++) {
            RoutedListenerStatus.RouteStatus counted = status == null ? null : routeAt(status, i);
            RouteConfig route = routeConfigs.get(i);
            Map<String, Long> byClass = new LinkedHashMap<>();
            for (int k = 1; k <= 5; k++) {
                byClass.put(k + "xx", counted == null ? 0L : counted.byStatusClass().get(k - 1));
            }
            routes.add(new RouteView(i, counted != null ? counted.name() : defaultName(config, route, i),
                    counted != null ? counted.action() : action(route), targets(route),
                    counted == null ? 0 : counted.requests(), byClass, route));
        }
        ListenerConfig shown = new ListenerConfig(config.name(), config.listen(),
                ClusterView.withoutKeyPasswords(config.tls()), config.http2(), config.routes(), config.trustedProxies(),
                config.maxClientConnections(), config.maxConnectionsPerClient(), config.idleTimeoutMs(),
                config.headerTimeoutMs(), config.maxHeaderBytes(), config.proxyProtocol(), config.http3());
        return new ListenerView(config.name(), new Listen(config.listen(), status == null ? null : status.bound()),
                config.tls() != null, status == null ? 0 : status.connections(),
                status == null ? 0 : status.rejectedPerClient(), routes, shown,
                status == null ? null : status.proxyProtocol(), status == null ? null : status.http3());
    }

    /** Every configured rate limit by name, with its key table as it runs. */
    static Map<String, RateLimitView> rateLimits(ClusterControl control) {
        Map<String, RateLimitStatus> running = new LinkedHashMap<>();
        for (RateLimitStatus status : control.rateLimitStatuses()) {
            running.put(status.name(), status);
        }
        Map<String, RateLimitView> views = new LinkedHashMap<>();
        control.config().rateLimitsOrEmpty().forEach((name, config) -> {
            RateLimitStatus s = running.get(name);
            double rate = config.requestsPerSecond() == null ? 0 : config.requestsPerSecond();
            views.put(name, s == null
                    ? new RateLimitView(name, config, 1, rate, 0, config.maxKeysOrDefault(), 0, 0)
                    : new RateLimitView(name, config, s.replicas(), s.enforcedRequestsPerSecond(), s.keys(),
                            s.maxKeys(), s.tableBytes(), s.limited()));
        });
        return views;
    }

    private static RoutedListenerStatus.RouteStatus routeAt(RoutedListenerStatus status, int index) {
        for (RoutedListenerStatus.RouteStatus route : status.routes()) {
            if (route.index() == index) {
                return route;
            }
        }
        return null;
    }

    private static String defaultName(ListenerConfig listener, RouteConfig route, int index) {
        return route.name() != null ? route.name() : listener.name() + "/" + index;
    }

    static String action(RouteConfig route) {
        if (route.cluster() != null) {
            return "cluster";
        }
        if (route.split() != null) {
            return "split";
        }
        return route.redirect() != null ? "redirect" : "respond";
    }

    static List<String> targets(RouteConfig route) {
        if (route.cluster() != null) {
            return List.of(route.cluster());
        }
        if (route.split() != null) {
            return route.split().stream().map(t -> t == null ? null : t.cluster()).toList();
        }
        return List.of();
    }
}
