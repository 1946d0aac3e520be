package io.loadwise.policy;

/**
 * Read-only, live view of one node as a policy sees it.
 *
 * <p>Configured attributes ({@link #name()}, {@link #weight()}) are fixed for the life of a snapshot.
 * Counters and flags are read live: they are updated by the dispatcher (or the simulator) on connection
 * and response events, never by a policy. Every method must be cheap and allocation-free because
 * pickers call them on the hot path.
 */
public interface NodeView {

    /** Position of this node in its {@link ClusterSnapshot}, 0-based. */
    int index();

    /** Node name, unique within its cluster, e.g. {@code "VCN1"}. */
    String name();

    /** Configured static weight, at least 1. */
    int weight();

    /** Administratively enabled and not draining. */
    boolean enabled();

    /**
     * Reachable: no recent connect failure holds the node out. A silent node agent does not make a node
     * unhealthy: it shows as {@link #agentSample()} {@code null}, and agent-driven policies apply their
     * fallback for such an "unknown" node instead of leaving it out.
     */
    boolean healthy();

    /** A picker may return only usable nodes. */
    default boolean usable() {
        return enabled() && healthy();
    }

    /**
     * Below its configured limit of requests in flight ({@code maxConnections}): the node takes another
     * request now. A picker returns only usable nodes that are also admitted ({@link #selectable()}); a full
     * node stays usable (its flags, slow start and the policies' memory do not change while it is full), it is
     * only passed over until a request ends. The default, for views with no limit, is {@code true}. One
     * volatile read: cheap enough for every candidate of every pick.
     */
    default boolean admitted() {
        return true;
    }

    /** What a picker may return: usable and admitted. */
    default boolean selectable() {
        return usable() && admitted();
    }

    /**
     * Work currently assigned to this node: open tunnels in TCP mode, bound client connections in HTTP
     * per-connection mode, requests in flight in HTTP per-request mode. What least-connections counts.
     */
    int activeConnections();

    /** HTTP requests sent to this node and not yet completely answered (0 in TCP mode). */
    int inFlightRequests();

    /**
     * Mean running time in milliseconds of the requests this node completed during the last second
     * (TAPR-08), or {@link Double#NaN} when it completed none.
     */
    double recentResponseTimeMillis();

    /**
     * A peak-sensitive moving average of this node's response times in milliseconds, decayed to now
     * ({@link PeakEwma}, as Finagle's and Linkerd's), or 0 when it has completed no request. Read by the
     * adaptive policy. The default, for views that keep no such average, is the mean of the last second
     * ({@link #recentResponseTimeMillis()}), 0 when there is none.
     */
    default double peakEwmaResponseMillis() {
        double recent = recentResponseTimeMillis();
        return Double.isNaN(recent) ? 0 : recent;
    }

    /**
     * Exchanges with this node that failed during the last second, counted in the same ten 100 ms buckets as
     * {@link #recentResponseTimeMillis()}: those that failed without its response (refused or reset
     * connections, time-outs: the client got the dispatcher's own error), and, in the dispatcher, its answers
     * that count as failures (500 and above, and a 404 on a path another node served in the last 10 s; see
     * docs/configuration.md). Such exchanges end in milliseconds, so a node that refuses work, or answers
     * errors for an application it has lost, holds little of it in flight and looks the least loaded; the
     * adaptive policy counts them as work on the node (8 requests each, {@code AdaptiveCost.FAILURE_WORK}).
     * The default, for views that do not count failures, is 0.
     */
    default int recentFailures() {
        return 0;
    }

    /**
     * The latest agent sample if it is younger than the cluster's expiry, otherwise {@code null}
     * (missing and stale look the same to a policy: the node is "unknown" to it, not down).
     */
    AgentSample agentSample();
}
