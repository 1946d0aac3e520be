package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * The whole configuration file. Immutable; a change builds a new one and validates it first.
 *
 * @param maxClientConnections client connections the whole dispatcher holds at most, over every
 *     listener; default: derived from the process's file-descriptor limit
 *     ({@link io.loadwise.dispatcher.net.ConnectionBudget})
 * @param workerThreads the event-loop threads that carry every client and node connection; default one per
 *     core ({@link io.loadwise.dispatcher.net.Transport#defaultWorkerThreads()}); {@code run --worker-threads}
 *     overrides it
 * @param transport the event loops' I/O: {@code auto} (default: epoll, else NIO), {@code io_uring},
 *     {@code epoll} or {@code nio} ({@link io.loadwise.dispatcher.net.TransportKind}); {@code run --transport}
 *     overrides it
 * @param config where the clusters live: this file (default) or etcd ({@link StoreConfig})
 * @param shutdownGraceMs how long SIGTERM lets requests in flight finish before it closes what is left;
 *     default {@link #DEFAULT_SHUTDOWN_GRACE_MS}
 * @param listeners ports that serve many applications through a route table ({@link ListenerConfig}); a
 *     cluster with a {@code listen} of its own is an implicit listener with one route
 * @param rateLimits named per-client request rates that routes refer to ({@link RateLimitConfig})
 * @param tracing spans exported over OTLP ({@link TracingConfig}); none without it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadwiseConfig(AdminConfig admin, LoggingConfig logging, Integer maxClientConnections,
        Integer workerThreads, String transport, List<ClusterConfig> clusters, StoreConfig config,
        Integer shutdownGraceMs, List<ListenerConfig> listeners, Map<String, RateLimitConfig> rateLimits,
        TracingConfig tracing) {

    public static final int DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

    public LoadwiseConfig(AdminConfig admin, LoggingConfig logging, Integer maxClientConnections,
            Integer workerThreads, String transport, List<ClusterConfig> clusters, StoreConfig config,
            Integer shutdownGraceMs, List<ListenerConfig> listeners, Map<String, RateLimitConfig> rateLimits) {
        this(admin, logging, maxClientConnections, workerThreads, transport, clusters, config, shutdownGraceMs,
                listeners, rateLimits, null);
    }

    public LoadwiseConfig(AdminConfig admin, LoggingConfig logging, Integer maxClientConnections,
            Integer workerThreads, String transport, List<ClusterConfig> clusters, StoreConfig config,
            Integer shutdownGraceMs) {
        this(admin, logging, maxClientConnections, workerThreads, transport, clusters, config, shutdownGraceMs,
                null, null, null);
    }

    public LoadwiseConfig(AdminConfig admin, LoggingConfig logging, Integer maxClientConnections,
            Integer workerThreads, List<ClusterConfig> clusters, StoreConfig config, Integer shutdownGraceMs) {
        this(admin, logging, maxClientConnections, workerThreads, null, clusters, config, shutdownGraceMs);
    }

    public LoadwiseConfig(AdminConfig admin, LoggingConfig logging, Integer maxClientConnections,
            Integer workerThreads, List<ClusterConfig> clusters, StoreConfig config) {
        this(admin, logging, maxClientConnections, workerThreads, clusters, config, null);
    }

    public LoadwiseConfig(AdminConfig admin, LoggingConfig logging, Integer maxClientConnections,
            Integer workerThreads, List<ClusterConfig> clusters) {
        this(admin, logging, maxClientConnections, workerThreads, clusters, null, null);
    }

    public LoadwiseConfig(AdminConfig admin, LoggingConfig logging, List<ClusterConfig> clusters) {
        this(admin, logging, null, null, clusters);
    }

    public LoadwiseConfig(AdminConfig admin, LoggingConfig logging, Integer maxClientConnections,
            List<ClusterConfig> clusters) {
        this(admin, logging, maxClientConnections, null, clusters);
    }

    public int shutdownGraceMsOrDefault() {
        return shutdownGraceMs == null ? DEFAULT_SHUTDOWN_GRACE_MS : shutdownGraceMs;
    }

    public List<ClusterConfig> clustersOrEmpty() {
        return clusters == null ? List.of() : clusters;
    }

    public List<ListenerConfig> listenersOrEmpty() {
        return listeners == null ? List.of() : listeners;
    }

    public Map<String, RateLimitConfig> rateLimitsOrEmpty() {
        return rateLimits == null ? Map.of() : rateLimits;
    }

    /** The same configuration with other clusters. */
    public LoadwiseConfig withClusters(List<ClusterConfig> newClusters) {
        return new LoadwiseConfig(admin, logging, maxClientConnections, workerThreads, transport, newClusters,
                config, shutdownGraceMs, listeners, rateLimits, tracing);
    }

    /** The same configuration with other listeners and rate limits. */
    public LoadwiseConfig withListeners(List<ListenerConfig> newListeners, Map<String, RateLimitConfig> newLimits) {
        return new LoadwiseConfig(admin, logging, maxClientConnections, workerThreads, transport, clusters,
                config, shutdownGraceMs, newListeners, newLimits, tracing);
    }
}
