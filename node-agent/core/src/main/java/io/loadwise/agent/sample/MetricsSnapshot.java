package io.loadwise.agent.sample;

import io.loadwise.wire.OrcaLoadReport;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One immutable sample as published by the {@link Sampler}: the values by seed name, where each group
 * came from, and the ORCA header value pre-encoded so request threads only read a field.
 */
public final class MetricsSnapshot {

    /** Before the first sample: nothing measured, no header. */
    public static final MetricsSnapshot EMPTY = new MetricsSnapshot(0, Map.of(), Map.of());

    private final long timestampMillis;
    private final Map<String, Double> metrics;
    private final Map<String, String> sources;
    private final String orcaHeader;

    public MetricsSnapshot(long timestampMillis, Map<String, Double> metrics, Map<String, String> sources) {
        this(timestampMillis, metrics, sources, OrcaLoadReport.Form.TEXT);
    }

    /** @param headerForm the form of the {@code endpoint-load-metrics} value ({@code loadwise.agent.header.form}) */
    public MetricsSnapshot(long timestampMillis, Map<String, Double> metrics, Map<String, String> sources,
                           OrcaLoadReport.Form headerForm) {
        this.timestampMillis = timestampMillis;
        this.metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        this.sources = Collections.unmodifiableMap(new LinkedHashMap<>(sources));
        String header = OrcaLoadReport.encode(headerForm, this.metrics);
        this.orcaHeader = OrcaLoadReport.isEmpty(header) ? null : header;
    }

    public long timestampMillis() {
        return timestampMillis;
    }

    public Map<String, Double> metrics() {
        return metrics;
    }

    public Map<String, String> sources() {
        return sources;
    }

    /** The {@code endpoint-load-metrics} value, or {@code null} when no header metric is known yet. */
    public String orcaHeader() {
        return orcaHeader;
    }
}
