package io.loadwise.console.api;

import io.loadwise.console.prometheus.PrometheusMetrics;
import io.loadwise.dispatcher.control.ClusterControl;
import java.nio.charset.StandardCharsets;

/** {@code GET /metrics}: the Prometheus text exposition of every cluster and node. */
final class PrometheusResource {

    private final ClusterControl control;

    PrometheusResource(ClusterControl control) {
        this.control = control;
    }

    Reply scrape(ApiCall call) {
        byte[] text = PrometheusMetrics.scrape(control).getBytes(StandardCharsets.UTF_8);
        return Reply.raw(PrometheusMetrics.CONTENT_TYPE, text);
    }
}
