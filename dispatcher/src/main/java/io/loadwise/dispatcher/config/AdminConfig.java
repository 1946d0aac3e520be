package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The admin endpoint (REST API and console).
 *
 * @param listen {@code host:port}; default {@code 127.0.0.1:8111} (loopback unless told otherwise)
 * @param token bearer token of the REST API; {@code LOADWISE_ADMIN_TOKEN} overrides it
 * @param dataDir where metric stores and console state live; default {@code ./data}
 * @param metricsDiskBudgetMb how much disk all metric stores together may use, in MiB; default
 *     {@value #DEFAULT_METRICS_DISK_BUDGET_MB}. New stores past it are refused (the proxy is not affected)
 * @param metricsRetentionHours how long the store of a removed cluster or node is kept (and continues if
 *     the name comes back) before it is deleted; default {@value #DEFAULT_METRICS_RETENTION_HOURS}
 * @param registrationToken the bearer token nodes register with ({@code POST/DELETE
 *     /api/clusters/{name}/registrations}); it can do nothing else. None: only the admin token registers
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AdminConfig(String listen, String token, String dataDir, Integer metricsDiskBudgetMb,
        Integer metricsRetentionHours, String registrationToken) {

    public static final String DEFAULT_LISTEN = "127.0.0.1:8111";
    public static final int DEFAULT_METRICS_DISK_BUDGET_MB = 1024;
    public static final int DEFAULT_METRICS_RETENTION_HOURS = 24;

    /** The canonical constructor is the one JSON uses. */
    @JsonCreator
    public AdminConfig {
    }

    /** Without the metric store limits (their defaults apply). */
    public AdminConfig(String listen, String token, String dataDir) {
        this(listen, token, dataDir, null, null, null);
    }

    /** Without a registration token. */
    public AdminConfig(String listen, String token, String dataDir, Integer metricsDiskBudgetMb,
            Integer metricsRetentionHours) {
        this(listen, token, dataDir, metricsDiskBudgetMb, metricsRetentionHours, null);
    }

    public String listenOrDefault() {
        return listen == null ? DEFAULT_LISTEN : listen;
    }

    public String dataDirOrDefault() {
        return dataDir == null ? "data" : dataDir;
    }

    public int metricsDiskBudgetMbOrDefault() {
        return metricsDiskBudgetMb == null ? DEFAULT_METRICS_DISK_BUDGET_MB : metricsDiskBudgetMb;
    }

    public int metricsRetentionHoursOrDefault() {
        return metricsRetentionHours == null ? DEFAULT_METRICS_RETENTION_HOURS : metricsRetentionHours;
    }
}
