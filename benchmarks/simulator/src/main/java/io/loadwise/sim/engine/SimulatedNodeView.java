package io.loadwise.sim.engine;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.NodeCounters;
import io.loadwise.policy.NodeView;
import java.util.function.LongSupplier;

/**
 * What policies see of any simulated node, through the same {@link NodeView} the dispatcher's nodes implement:
 * its name and weight, always enabled and healthy, the dispatcher's own {@link NodeCounters} (updated by the
 * simulation on the events on which the dispatcher updates them) and the last agent sample delivered, read as
 * missing once older than the expiry. The node models themselves ({@link SimulatedNode}, the testbed's
 * application server) add only what they simulate.
 */
public abstract class SimulatedNodeView implements NodeView {

    private final int index;
    private final String name;
    private final int weight;
    private final LongSupplier nanoClock;
    private final long sampleExpiryMillis;
    private final NodeCounters live = new NodeCounters();
    private AgentSample sample;

    protected SimulatedNodeView(int index, String name, int weight, LongSupplier nanoClock, long sampleExpiryMillis) {
        this.index = index;
        this.name = name;
        this.weight = weight;
        this.nanoClock = nanoClock;
        this.sampleExpiryMillis = sampleExpiryMillis;
    }

    /** The counters the simulation updates as the dispatcher would. */
    public final NodeCounters live() {
        return live;
    }

    /** An agent sample reaches the dispatcher. */
    protected final void deliverSample(AgentSample delivered) {
        sample = delivered;
    }

    @Override
    public final int index() {
        return index;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final int weight() {
        return weight;
    }

    @Override
    public final boolean enabled() {
        return true;
    }

    @Override
    public final boolean healthy() {
        return true;
    }

    @Override
    public final int activeConnections() {
        return live.activeConnections();
    }

    @Override
    public final int inFlightRequests() {
        return live.inFlightRequests();
    }

    @Override
    public final double recentResponseTimeMillis() {
        return live.recentResponseTimeMillis(nanoClock.getAsLong());
    }

    @Override
    public final double peakEwmaResponseMillis() {
        return live.peakEwmaResponseMillis(nanoClock.getAsLong());
    }

    @Override
    public final int recentFailures() {
        return live.recentFailures(nanoClock.getAsLong());
    }

    @Override
    public final AgentSample agentSample() {
        AgentSample s = sample;
        if (s == null || nanoClock.getAsLong() / 1_000_000L - s.timestampMillis() > sampleExpiryMillis) {
            return null;
        }
        return s;
    }
}
