package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Active health checks of a cluster's nodes ({@code "healthCheck"} of a cluster, or of one node to
 * override the cluster's field by field). Every field is optional; the {@code OrDefault} accessors apply
 * the defaults below.
 *
 * @param path the path to {@code GET}; absent: the check only opens a TCP connection (the only check a
 *     node that does not speak HTTP can answer)
 * @param intervalMs time between two checks of one node, jittered by ±10 %
 * @param timeoutMs a check that has no status line within this time has failed
 * @param rise checks in a row that must pass before a down node is up again
 * @param fall checks in a row that must fail before an up node is down
 * @param expectStatus the statuses that pass, e.g. {@code "200-399"} or {@code "200,204"}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HealthCheckConfig(String path, Integer intervalMs, Integer timeoutMs, Integer rise, Integer fall,
        String expectStatus) {

    public static final int DEFAULT_INTERVAL_MS = 2_000;
    public static final int DEFAULT_TIMEOUT_MS = 1_000;
    public static final int DEFAULT_RISE = 2;
    public static final int DEFAULT_FALL = 3;
    public static final String DEFAULT_EXPECT_STATUS = "200-399";

    public int intervalMsOrDefault() {
        return intervalMs == null ? DEFAULT_INTERVAL_MS : intervalMs;
    }

    public int timeoutMsOrDefault() {
        return timeoutMs == null ? DEFAULT_TIMEOUT_MS : timeoutMs;
    }

    public int riseOrDefault() {
        return rise == null ? DEFAULT_RISE : rise;
    }

    public int fallOrDefault() {
        return fall == null ? DEFAULT_FALL : fall;
    }

    public String expectStatusOrDefault() {
        return expectStatus == null ? DEFAULT_EXPECT_STATUS : expectStatus;
    }

    /**
     * The check of one node: the cluster's ({@code clusterLevel}, may be {@code null}) with every field the
     * node sets ({@code nodeLevel}, may be {@code null}) replacing the cluster's. {@code null} when neither
     * asks for checks.
     */
    public static HealthCheckConfig merge(HealthCheckConfig clusterLevel, HealthCheckConfig nodeLevel) {
        if (nodeLevel == null) {
            return clusterLevel;
        }
        if (clusterLevel == null) {
            return nodeLevel;
        }
        return new HealthCheckConfig(
                nodeLevel.path != null ? nodeLevel.path : clusterLevel.path,
                nodeLevel.intervalMs != null ? nodeLevel.intervalMs : clusterLevel.intervalMs,
                nodeLevel.timeoutMs != null ? nodeLevel.timeoutMs : clusterLevel.timeoutMs,
                nodeLevel.rise != null ? nodeLevel.rise : clusterLevel.rise,
                nodeLevel.fall != null ? nodeLevel.fall : clusterLevel.fall,
                nodeLevel.expectStatus != null ? nodeLevel.expectStatus : clusterLevel.expectStatus);
    }
}
