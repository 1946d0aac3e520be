package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Passive outlier ejection of an HTTP cluster ({@code "outlierDetection"}), after Envoy's: a node that
 * answers too many 5xx in a row, or fails too many exchanges in a row at the gateway level (connect
 * failure, reset or timeout before a response, or a 502/503/504 answer), leaves selection for a time that
 * grows with each ejection. Every field is optional.
 *
 * @param consecutive5xx 5xx answers or gateway failures in a row that eject a node; 0 turns this off
 * @param consecutiveGatewayFailures gateway failures in a row that eject a node; 0 turns this off
 * @param baseEjectionMs the first ejection's length; the n-th in a row lasts n times as long
 * @param maxEjectionPercent at most this share of the cluster's nodes is ejected at once (rounded down)
 * @param maxEjectionMs the longest one ejection lasts, however often the node was ejected
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OutlierDetectionConfig(Integer consecutive5xx, Integer consecutiveGatewayFailures,
        Integer baseEjectionMs, Integer maxEjectionPercent, Integer maxEjectionMs) {

    public static final int DEFAULT_CONSECUTIVE_5XX = 5;
    public static final int DEFAULT_CONSECUTIVE_GATEWAY_FAILURES = 3;
    public static final int DEFAULT_BASE_EJECTION_MS = 30_000;
    public static final int DEFAULT_MAX_EJECTION_PERCENT = 50;
    public static final int DEFAULT_MAX_EJECTION_MS = 300_000;

    public int consecutive5xxOrDefault() {
        return consecutive5xx == null ? DEFAULT_CONSECUTIVE_5XX : consecutive5xx;
    }

    public int consecutiveGatewayFailuresOrDefault() {
        return consecutiveGatewayFailures == null ? DEFAULT_CONSECUTIVE_GATEWAY_FAILURES : consecutiveGatewayFailures;
    }

    public int baseEjectionMsOrDefault() {
        return baseEjectionMs == null ? DEFAULT_BASE_EJECTION_MS : baseEjectionMs;
    }

    public int maxEjectionPercentOrDefault() {
        return maxEjectionPercent == null ? DEFAULT_MAX_EJECTION_PERCENT : maxEjectionPercent;
    }

    public int maxEjectionMsOrDefault() {
        return maxEjectionMs == null ? Math.max(DEFAULT_MAX_EJECTION_MS, baseEjectionMsOrDefault()) : maxEjectionMs;
    }
}
