package io.loadwise.console.api;

import io.loadwise.console.prometheus.ExpositionFormat;
import io.loadwise.console.prometheus.PrometheusMetrics;
import io.loadwise.dispatcher.control.ClusterControl;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /metrics}: the exposition of every cluster and node, in OpenMetrics 1.0 when the scraper's
 * {@code Accept} prefers it (Prometheus asks so by default), else in the Prometheus text format 0.0.4.
 */
final class PrometheusResource {

    private final ClusterControl control;

    PrometheusResource(ClusterControl control) {
        this.control = control;
    }

    Reply scrape(ApiCall call) {
        boolean openMetrics = ExpositionFormat.prefersOpenMetrics(call.header("Accept"));
        byte[] text = PrometheusMetrics.scrape(control, openMetrics).getBytes(StandardCharsets.UTF_8);
        return Reply.raw(openMetrics ? PrometheusMetrics.OPENMETRICS_CONTENT_TYPE : PrometheusMetrics.CONTENT_TYPE, text);
    }
}
