package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.RateLimitConfig;
import io.loadwise.dispatcher.http.HttpListener;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.http.ListenerSettings;
import io.loadwise.dispatcher.http.RouteCounter;
import io.loadwise.dispatcher.http2.Http2Frontend;
import io.loadwise.dispatcher.http3.Http3Frontend;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.route.ClientRateLimit;
import io.loadwise.dispatcher.route.RouteTableStage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ports of {@code listeners[]} and what they share: each listener's socket and route table, the named rate
 * limits, and the per-route counters (kept across reloads, by listener and route name). A reload builds every
 * route table anew against the clusters then running and swaps each in whole; a listener whose port or protocols
 * changed hands its socket to its successor (same address) or binds the new one, and the old one drains.
 * Changes are serialised by the caller ({@link LiveClusters}).
 */
final class RoutedListeners {

    private static final Logger log = LoggerFactory.getLogger(RoutedListeners.class);

    private final Transport transport;
    private final ConnectionLimit clientConnections;
    private final Map<String, Running> running = new LinkedHashMap<>();
    private volatile Map<String, ClientRateLimit> limits = Map.of();
    private final Map<String, RateLimitConfig> limitConfigs = new LinkedHashMap<>();
    private final Map<String, Map<String, RouteCounter>> counters = new ConcurrentHashMap<>();
    private volatile int replicas = 1;
    private volatile List<Running> published = List.of();

    /** One listener as it runs: its configuration, socket side, counters and route table. */
    record Running(ListenerConfig config, HttpListener listener, RouteTableStage routes) {
    }

    RoutedListeners(Transport transport, ConnectionLimit clientConnections) {
        this.transport = transport;
        this.clientConnections = clientConnections;
    }

    /**
     * Makes {@code config}'s listeners the running ones, with route tables over {@code clusters}.
     *
     * @return what could not be bound, as {@code listeners[i].listen: why}; empty when all went well
     */
    List<String> apply(LoadwiseConfig config, Map<String, HttpProxyServer> clusters) {
        updateLimits(config.rateLimitsOrEmpty());
        List<String> failed = new ArrayList<>();
        Map<String, Running> next = new LinkedHashMap<>();
        List<ListenerConfig> listeners = config.listenersOrEmpty();
        for (int i = 0; i < listeners.size(); i++) {
            ListenerConfig lc = listeners.get(i);
            Running previous = running.remove(lc.name());
            RouteTableStage routes = new RouteTableStage(lc, clusters, limits,
                    counters.computeIfAbsent(lc.name(), n -> new ConcurrentHashMap<>()), System::nanoTime);
            if (previous != null && ListenerSettings.of(previous.config()).equals(ListenerSettings.of(lc))) {
                previous.listener().setRoutes(routes); // the whole table at once: requests in flight keep theirs
                next.put(lc.name(), new Running(lc, previous.listener(), routes));
                continue;
            }
            HttpListener listener = new HttpListener(ListenerSettings.of(lc), new TrafficCounters(), routes, null,
                    transport, clientConnections, Http2Frontend::new, Http3Frontend::new);
            try {
                if (previous != null && lc.listen().equals(previous.config().listen())) {
                    listener.takeOver(previous.listener());
                } else {
                    listener.start();
                }
                next.put(lc.name(), new Running(lc, listener, routes));
            } catch (IOException | RuntimeException e) {
                log.error("listener {}: {}", lc.name(), e.getMessage());
                failed.add("listeners[" + i + "].listen: " + e.getMessage());
            }
            if (previous != null) {
                previous.listener().drain();
            }
        }
        for (Running gone : running.values()) {
            log.info("listener {}: removed; draining its connections", gone.config().name());
            gone.listener().drain();
            counters.remove(gone.config().name());
        }
        running.clear();
        running.putAll(next);
        published = List.copyOf(next.values());
        return failed;
    }

    /** Keeps each limit whose configuration stayed (and so its buckets); makes the others anew. */
    private void updateLimits(Map<String, RateLimitConfig> configs) {
        Map<String, ClientRateLimit> built = new LinkedHashMap<>();
        Map<String, ClientRateLimit> old = limits;
        for (Map.Entry<String, RateLimitConfig> e : configs.entrySet()) {
            ClientRateLimit kept = e.getValue().equals(limitConfigs.get(e.getKey())) ? old.get(e.getKey()) : null;
            ClientRateLimit limit = kept != null ? kept : new ClientRateLimit(e.getKey(), e.getValue());
            limit.shareAmong(replicas);
            built.put(e.getKey(), limit);
        }
        limitConfigs.clear();
        limitConfigs.putAll(configs);
        limits = Map.copyOf(built);
    }

    /** Each rate limit enforces {@code 1/n} of itself from now on: {@code n} replicas share the configuration. */
    void shareAmong(int n) {
        replicas = Math.max(1, n);
        for (ClientRateLimit limit : limits.values()) {
            limit.shareAmong(replicas);
        }
    }

    /** The running listeners, in configuration order, as last applied. */
    List<Running> published() {
        return published;
    }

    Map<String, ClientRateLimit> limits() {
        return limits;
    }

    /** The counters of a listener's routes, by route name; empty for an unknown listener. */
    Map<String, RouteCounter> counters(String listener) {
        return counters.getOrDefault(listener, Map.of());
    }

    void checkCertificates() {
        for (Running r : running.values()) {
            if (r.listener().tls() != null) {
                r.listener().tls().checkFiles();
            }
        }
    }

    void drainAll() {
        for (Running r : running.values()) {
            r.listener().drain();
        }
    }

    void closeAll() {
        for (Running r : running.values()) {
            r.listener().close();
        }
        running.clear();
        published = List.of();
    }
}
