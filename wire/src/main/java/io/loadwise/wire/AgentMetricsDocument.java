package io.loadwise.wire;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parsed metrics endpoint document: when the agent sampled, every metric by seed name (percentages
 * 0-100, counts and sizes plain), and where each metric group came from (e.g. {@code "os" -> "sigar"}).
 */
public final class AgentMetricsDocument {

    private final long timestampMillis;
    private final Map<String, Double> metrics;
    private final Map<String, String> sources;

    public AgentMetricsDocument(long timestampMillis, Map<String, Double> metrics, Map<String, String> sources) {
        this.timestampMillis = timestampMillis;
        this.metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        this.sources = Collections.unmodifiableMap(new LinkedHashMap<>(sources));
    }

    /** Epoch milliseconds at which the agent took the sample. */
    public long timestampMillis() {
        return timestampMillis;
    }

    public Map<String, Double> metrics() {
        return metrics;
    }

    /** Metric group to source name; empty when the agent did not say. */
    public Map<String, String> sources() {
        return sources;
    }

    @Override
    public String toString() {
        return "AgentMetricsDocument{" + timestampMillis + " " + metrics + " sources=" + sources + "}";
    }
}
