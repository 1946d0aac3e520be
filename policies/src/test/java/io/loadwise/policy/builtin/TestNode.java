package io.loadwise.policy.builtin;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.NodeView;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** A mutable {@link NodeView} for tests: the test plays the dispatcher and sets counters and samples. */
final class TestNode implements NodeView {

    private final int index;
    private final String name;
    private final int weight;
    private volatile boolean enabled = true;
    private volatile boolean healthy = true;
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile double responseTimeMillis = Double.NaN;
    /** NaN: none set, {@link #peakEwmaResponseMillis()} falls back to the interface's default. */
    private volatile double peakEwmaMillis = Double.NaN;
    private volatile AgentSample sample;
    private volatile int failures;

    TestNode(int index, String name, int weight) {
        this.index = index;
        this.name = name;
        this.weight = weight;
    }

    /** A sample with the given metrics, e.g. {@code metricsSample("OS_CPU_USED%", 20, "OS_MEM_USED%", 40)}. */
    static AgentSample metricsSample(Object... nameValuePairs) {
        Map<String, Double> metrics = new HashMap<>();
        for (int i = 0; i < nameValuePairs.length; i += 2) {
            metrics.put((String) nameValuePairs[i], ((Number) nameValuePairs[i + 1]).doubleValue());
        }
        return new AgentSample(0, AgentSample.Source.SIMULATED, metrics);
    }

    TestNode enabled(boolean value) {
        enabled = value;
        return this;
    }

    TestNode healthy(boolean value) {
        healthy = value;
        return this;
    }

    TestNode active(int value) {
        active.set(value);
        return this;
    }

    TestNode inFlight(int value) {
        inFlight.set(value);
        return this;
    }

    TestNode responseTime(double millis) {
        responseTimeMillis = millis;
        return this;
    }

    TestNode peakEwma(double millis) {
        peakEwmaMillis = millis;
        return this;
    }

    /** Exchanges that failed on this node during the last second ({@link NodeView#recentFailures()}). */
    TestNode failures(int value) {
        failures = value;
        return this;
    }

    @Override
    public int recentFailures() {
        return failures;
    }

    TestNode sample(AgentSample value) {
        sample = value;
        return this;
    }

    /** The same readings in a new sample, as an agent's next report that says the same. */
    void resend() {
        if (sample != null) {
            sample = new AgentSample(sample.timestampMillis(), sample.source(), sample.metrics());
        }
    }

    TestNode metrics(Object... nameValuePairs) {
        return sample(metricsSample(nameValuePairs));
    }

    /** What the dispatcher does when it opens a connection to this node. */
    void connectionOpened() {
        active.incrementAndGet();
    }

    void connectionClosed() {
        active.decrementAndGet();
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
        return active.get();
    }

    @Override
    public int inFlightRequests() {
        return inFlight.get();
    }

    @Override
    public double recentResponseTimeMillis() {
        return responseTimeMillis;
    }

    @Override
    public double peakEwmaResponseMillis() {
        double peak = peakEwmaMillis;
        return Double.isNaN(peak) ? NodeView.super.peakEwmaResponseMillis() : peak;
    }

    @Override
    public AgentSample agentSample() {
        return sample;
    }

    @Override
    public String toString() {
        return name;
    }
}
