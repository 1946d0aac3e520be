package io.loadwise.console.api;

import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.TracingStatus;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /api/tracing}: whether spans are exported, where to and at what ratio, and how many the collector took
 * or could not be given (issue 33, item 3).
 */
final class TracingResource {

    private final ClusterControl control;

    TracingResource(ClusterControl control) {
        this.control = control;
    }

    Reply get(ApiCall call) {
        TracingStatus t = control.tracing();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("enabled", t.enabled());
        body.put("otlpEndpoint", t.otlpEndpoint());
        body.put("sampleRatio", t.sampleRatio());
        body.put("spansExported", t.spansExported());
        body.put("spansFailed", t.spansFailed());
        body.put("spansDropped", t.spansDropped());
        body.put("queueCapacity", t.queueCapacity());
        return Reply.ok(body);
    }
}
