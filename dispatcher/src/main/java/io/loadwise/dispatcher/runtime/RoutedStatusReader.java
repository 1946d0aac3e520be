package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.net.ProxyProtocolStats;
import io.loadwise.dispatcher.net.ProxyProtocolStats.Refusal;
import io.loadwise.dispatcher.config.RateLimitConfig;
import io.loadwise.dispatcher.config.RouteConfig;
import io.loadwise.dispatcher.control.RateLimitStatus;
import io.loadwise.dispatcher.control.RoutedListenerStatus;
import io.loadwise.dispatcher.http.RouteCounter;
import io.loadwise.dispatcher.route.ClientRateLimit;
import io.loadwise.dispatcher.route.Route;
import io.loadwise.dispatcher.route.RouteAction;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The operator's view of {@link RoutedListeners}: copies, read without stopping any request. */
final class RoutedStatusReader {

    private RoutedStatusReader() {
    }

    static List<RoutedListenerStatus> listeners(RoutedListeners routed) {
        List<RoutedListenerStatus> list = new ArrayList<>();
        for (RoutedListeners.Running r : routed.published()) {
            Map<String, RouteCounter> counters = routed.counters(r.config().name());
            List<RoutedListenerStatus.RouteStatus> routes = new ArrayList<>();
            for (Route route : r.routes().table().routes()) {
                RouteCounter c = counters.get(route.name());
                List<Long> byClass = new ArrayList<>(5);
                for (int k = 1; k <= 5; k++) {
                    byClass.add(c == null ? 0 : c.count(k));
                }
                routes.add(new RoutedListenerStatus.RouteStatus(route.index(), route.name(), action(route.action()),
                        targets(route.config()), c == null ? 0 : c.total(), byClass));
            }
            InetSocketAddress bound = r.listener().boundAddress();
            list.add(new RoutedListenerStatus(r.config().name(), r.config().listen(),
                    bound == null ? null : bound.getHostString() + ":" + bound.getPort(), r.config().tls() != null,
                    r.listener().counters().activeConnections(), r.listener().rejectedPerClient(), routes,
                    proxyCounts(r.listener().proxyProtocolStats()),
                    r.listener().http3() == null ? null : r.listener().http3().counts()));
        }
        return list;
    }

    /** {@code stats} read now; {@code null} for a listener without {@code proxyProtocol}. */
    static RoutedListenerStatus.ProxyProtocolCounts proxyCounts(ProxyProtocolStats stats) {
        return stats == null ? null : new RoutedListenerStatus.ProxyProtocolCounts(stats.acceptedCount(),
                stats.refusedCount(Refusal.UNTRUSTED), stats.refusedCount(Refusal.INVALID),
                stats.refusedCount(Refusal.TIMEOUT));
    }

    static List<RateLimitStatus> rateLimits(RoutedListeners routed, Map<String, RateLimitConfig> configs) {
        List<RateLimitStatus> list = new ArrayList<>();
        for (Map.Entry<String, ClientRateLimit> e : routed.limits().entrySet()) {
            ClientRateLimit limit = e.getValue();
            RateLimitConfig config = configs.get(e.getKey());
            if (config == null) {
                continue;
            }
            list.add(new RateLimitStatus(e.getKey(), config.key(), config.requestsPerSecond(),
                    config.burstOrDefault(), limit.replicas(), config.requestsPerSecond() / limit.replicas(),
                    limit.keys(), limit.capacity(), limit.tableBytes(), limit.limited()));
        }
        return list;
    }

    private static String action(RouteAction action) {
        if (action instanceof RouteAction.Forward) {
            return "cluster";
        }
        if (action instanceof RouteAction.Split) {
            return "split";
        }
        return action instanceof RouteAction.Redirect ? "redirect" : "respond";
    }

    private static List<String> targets(RouteConfig config) {
        if (config.cluster() != null) {
            return List.of(config.cluster());
        }
        if (config.split() != null) {
            return config.split().stream().map(RouteConfig.SplitTarget::cluster).toList();
        }
        return List.of();
    }
}
