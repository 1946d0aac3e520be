package io.loadwise.dispatcher.control;

import io.loadwise.dispatcher.config.TracingConfig;
import io.loadwise.dispatcher.tracing.Tracing;

/**
 * Tracing as it runs (issue 33, item 3), for the API and Prometheus.
 *
 * @param otlpEndpoint the collector's base URL; {@code null} when tracing is off
 * @param sampleRatio the share of new traces sampled; {@code null} when off
 * @param spansExported spans the collector accepted since start
 * @param spansFailed spans in batches that could not be delivered (collector unreachable, refusing or too slow)
 * @param spansDropped spans dropped because {@code queueCapacity} spans were already waiting for export
 * @param queueCapacity spans that wait for export at most; more are dropped
 */
public record TracingStatus(String otlpEndpoint, Double sampleRatio, long spansExported, long spansFailed,
        long spansDropped, int queueCapacity) {

    public boolean enabled() {
        return otlpEndpoint != null;
    }

    /** Now. */
    public static TracingStatus current() {
        TracingConfig running = Tracing.running();
        return new TracingStatus(running == null ? null : running.otlpEndpoint(),
                running == null ? null : running.sampleRatioOrDefault(), Tracing.spansExported(), Tracing.spansFailed(),
                Tracing.spansDropped(), Tracing.QUEUE);
    }
}
