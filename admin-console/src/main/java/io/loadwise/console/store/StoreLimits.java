package io.loadwise.console.store;

import io.loadwise.dispatcher.config.AdminConfig;
import java.util.concurrent.TimeUnit;

/**
 * How much the metric stores may take and keep.
 *
 * @param budgetBytes all files under the store directory together ({@code admin.metricsDiskBudgetMb})
 * @param retentionMillis how long the store of a removed cluster or node stays after its last write
 *     ({@code admin.metricsRetentionHours})
 */
public record StoreLimits(long budgetBytes, long retentionMillis) {

    public static final long MB = 1024L * 1024;

    public StoreLimits {
        if (budgetBytes <= 0 || retentionMillis < 0) {
            throw new IllegalArgumentException("budget " + budgetBytes + " bytes, retention " + retentionMillis + " ms");
        }
    }

    /** The limits an admin configuration sets, defaults for what it leaves out. */
    public static StoreLimits of(AdminConfig admin) {
        AdminConfig settings = admin == null ? new AdminConfig(null, null, null) : admin;
        return new StoreLimits(settings.metricsDiskBudgetMbOrDefault() * MB,
                TimeUnit.HOURS.toMillis(settings.metricsRetentionHoursOrDefault()));
    }

    /** The defaults: 1024 MB, 24 hours. */
    public static StoreLimits defaults() {
        return of(null);
    }
}
