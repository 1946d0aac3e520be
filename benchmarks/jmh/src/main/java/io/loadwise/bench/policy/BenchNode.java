package io.loadwise.bench.policy;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.NodeView;

/**
 * A node as the dispatcher presents it: configured attributes plus volatile live counters, so that a
 * pick pays the same memory-ordering cost as in production.
 */
final class BenchNode implements NodeView {

    private final int index;
    private final String name;
    private final int weight;
    private volatile boolean enabled = true;
    private volatile boolean healthy = true;
    private volatile int activeConnections;
    private volatile int inFlightRequests;
    private volatile double recentResponseTimeMillis;
    private volatile AgentSample agentSample;

    BenchNode(int index, int weight, int activeConnections, double responseTimeMillis, AgentSample sample) {
        this.index = index;
        this.name = "VCN" + (index + 1);
        this.weight = weight;
        this.activeConnections = activeConnections;
        this.inFlightRequests = activeConnections;
        this.recentResponseTimeMillis = responseTimeMillis;
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
        return activeConnections;
    }

    @Override
    public int inFlightRequests() {
        return inFlightRequests;
    }

    @Override
    public double recentResponseTimeMillis() {
        return recentResponseTimeMillis;
    }

    @Override
    public AgentSample agentSample() {
        return agentSample;
    }
}
