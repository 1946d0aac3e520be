package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code tracing} (issue 33, item 3): spans of every HTTP request exported over OTLP/HTTP. Without this block there
 * is no tracing at all (no span is made); W3C trace context is still validated and passed on.
 *
 * @param otlpEndpoint the collector's OTLP/HTTP base URL, {@code http://collector:4318}; spans are POSTed to
 *     {@code <otlpEndpoint>/v1/traces}
 * @param sampleRatio the share of new traces sampled, 0 to 1 (default {@value #DEFAULT_SAMPLE_RATIO}); a request
 *     that brings a {@code traceparent} follows its parent's decision
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TracingConfig(String otlpEndpoint, Double sampleRatio) {

    public static final double DEFAULT_SAMPLE_RATIO = 1.0;

    public double sampleRatioOrDefault() {
        return sampleRatio == null ? DEFAULT_SAMPLE_RATIO : sampleRatio;
    }

    /** Where the spans are POSTed: the endpoint without its trailing slashes, then {@code /v1/traces}. */
    public String tracesUrl() {
        String base = otlpEndpoint;
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return base + "/v1/traces";
    }
}
