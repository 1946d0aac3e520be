package io.loadwise.bench.policy;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.NodeCounters;
import io.loadwise.policy.NodeView;

/**
 * A node as the dispatcher presents it: configured attributes, volatile flags and the dispatcher's own
 * live counters ({@link NodeCounters}), so that a pick pays the same memory-ordering and lookup cost as in
 * production. The counters are set up through the events the dispatcher applies; only the clock differs:
 * it stands still at {@link #NOW}, so the response time recorded at setup stays in its one-second window
 * for the whole run (the dispatcher reads {@code System.nanoTime()} there).
 */
final class BenchNode implements NodeView {

    private static final long NOW = 0;

    private final int index;
    private final String name;
    private final int weight;
    private volatile boolean enabled = true;
    private volatile boolean healthy = true;
    private final NodeCounters live = new NodeCounters();
    private volatile AgentSample agentSample;

    /** A node with {@code activeConnections} requests in flight, and one of {@code responseTimeMillis} ended. */
    BenchNode(int index, int weight, int activeConnections, double responseTimeMillis, AgentSample sample) {
        this.index = index;
        this.name = "VCN" + (index + 1);
        this.weight = weight;
        for (int i = 0; i < activeConnections; i++) {
            live.assignmentStarted();
            live.requestSent();
        }
        live.requestSent();
        live.requestEnded(NOW, Math.round(responseTimeMillis * 1_000_000));
        this.agentSample = sample;
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int weight() {
        return weight;
    }

    @Override
    public boolean enabled() {
        return enabled;
    }

    @Override
    public boolean healthy() {
        return healthy;
    }

    @Override
    public int activeConnections() {
        return live.activeConnections();
    }

    @Override
    public int inFlightRequests() {
        return live.inFlightRequests();
    }

    @Override
    public double recentResponseTimeMillis() {
        return live.recentResponseTimeMillis(NOW);
    }

    @Override
    public double peakEwmaResponseMillis() {
        return live.peakEwmaResponseMillis(NOW);
    }

    @Override
    public AgentSample agentSample() {
        return agentSample;
    }
}
