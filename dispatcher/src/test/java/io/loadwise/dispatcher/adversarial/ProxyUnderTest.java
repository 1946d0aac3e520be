package io.loadwise.dispatcher.adversarial;

import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.http.HttpListener;
import io.loadwise.dispatcher.http.ListenerSettings;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.loadwise.dispatcher.route.ClientRateLimit;
import io.loadwise.dispatcher.route.RouteTableStage;
import java.util.Map;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.dispatcher.http2.Http2Frontend;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

/** The real L7 listener ({@link HttpProxyServer}) of one cluster, in front of raw nodes. */
final class ProxyUnderTest implements AutoCloseable {

    private static final PolicyRegistry POLICIES = PolicyRegistry.load();

    private final HttpProxyServer server;
    private final HttpListener routed;
    private final Map<String, ClientRateLimit> limits;
    private final InetSocketAddress address;

    private ProxyUnderTest(HttpProxyServer server, HttpListener routed, Map<String, ClientRateLimit> limits,
            InetSocketAddress address) {
        this.server = server;
        this.routed = routed;
        this.limits = limits;
        this.address = address;
    }

    /** The rate limits of a case with {@code routes:}, by name; empty otherwise. */
    Map<String, ClientRateLimit> limits() {
        return limits;
    }

    static ProxyUnderTest start(Transport transport, ClusterOverrides overrides, List<String> nodeAddresses)
            throws IOException {
        ClusterConfig config = overrides.build("adversarial", nodeAddresses);
        VirtualCluster cluster = new VirtualCluster(config, POLICIES, System::nanoTime);
        HttpProxyServer server = new HttpProxyServer(cluster, transport, null, Http2Frontend::new);
        InetSocketAddress own = server.start();
        if (overrides.routes() == null) {
            return new ProxyUnderTest(server, null, Map.of(), own);
        }
        LoadwiseConfig whole = routedConfig(config, overrides);
        ListenerConfig listener = whole.listenersOrEmpty().get(0);
        Map<String, ClientRateLimit> limits = new java.util.HashMap<>();
        whole.rateLimitsOrEmpty().forEach((name, limit) -> limits.put(name, new ClientRateLimit(name, limit)));
        HttpListener routed = new HttpListener(ListenerSettings.of(listener), new TrafficCounters(),
                new RouteTableStage(listener, Map.of(config.name(), server), limits, new java.util.HashMap<>(),
                        System::nanoTime), null, transport, null, Http2Frontend::new);
        try {
            return new ProxyUnderTest(server, routed, limits, routed.start());
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /**
     * The listener of a case with {@code routes:}, validated as {@code loadwise validate} would (so a bad route
     * in the corpus fails the suite's start, not one case): the routes lead to the case's cluster by its name.
     */
    private static LoadwiseConfig routedConfig(ClusterConfig cluster, ClusterOverrides overrides) {
        try {
            LoadwiseConfig config = ConfigLoader.parse("{\"listeners\":[{\"name\":\"edge\",\"listen\":\"127.0.0.1:0\","
                    + "\"trustedProxies\":[\"127.0.0.1\"],\"routes\":" + overrides.routes() + "}],\"rateLimits\":"
                    + (overrides.rateLimits() == null ? "{}" : overrides.rateLimits()) + "}")
                    .withClusters(List.of(cluster));
            List<String> errors = new ConfigValidator(POLICIES).validate(config);
            if (!errors.isEmpty()) {
                throw new IllegalArgumentException("routes: " + errors);
            }
            return config;
        } catch (ConfigValidationException e) {
            throw new IllegalArgumentException("routes: " + e.getMessage(), e);
        }
    }

    InetSocketAddress address() {
        return address;
    }

    VirtualCluster cluster() {
        return server.cluster();
    }

    @Override
    public void close() {
        if (routed != null) {
            routed.close();
        }
        server.close();
    }
}
