package io.loadwise.dispatcher.config;

import java.util.List;

/**
 * The validator's checks of health checks, outlier detection, slow start, queueing, retries and the
 * shutdown grace (issue 15), kept apart from {@link ConfigValidator} so that each grows on its own.
 */
final class ResilienceChecks {

    static final int MAX_TIME_MS = 86_400_000;
    static final int MAX_RISE_FALL = 100;
    static final int MAX_CONSECUTIVE = 10_000;
    static final int MAX_QUEUE = 1_000_000;
    static final int MAX_NODE_CONNECTIONS = 1_000_000;

    private ResilienceChecks() {
    }

    static void top(LoadwiseConfig config, List<String> errors) {
        range("shutdownGraceMs", config.shutdownGraceMs(), 0, MAX_TIME_MS, errors);
    }

    static void cluster(String at, ClusterConfig c, List<String> errors) {
        healthCheck(at + ".healthCheck", c.healthCheck(), errors);
        if (c.healthCheck() != null) {
            timeoutWithinInterval(at + ".healthCheck", c.healthCheck(), errors);
        }
        range(at + ".slowStartMs", c.slowStartMs(), 0, MAX_TIME_MS, errors);
        range(at + ".queueTimeoutMs", c.queueTimeoutMs(), 0, MAX_TIME_MS, errors);
        range(at + ".maxQueue", c.maxQueue(), 1, MAX_QUEUE, errors);
        range(at + ".retryBudgetPercent", c.retryBudgetPercent(), 0, 100, errors);
        retryOn(at + ".retryOn", c.retryOn(), errors);
        if (c.mode() == Mode.TCP) {
            httpOnly(at + ".retryOn", c.retryOn(), "it retries HTTP requests", errors);
            httpOnly(at + ".queueTimeoutMs", c.queueTimeoutMs(), "it queues HTTP requests", errors);
            httpOnly(at + ".maxQueue", c.maxQueue(), "it queues HTTP requests", errors);
            httpOnly(at + ".retryBudgetPercent", c.retryBudgetPercent(), "it retries HTTP requests", errors);
        }
        OutlierDetectionConfig o = c.outlierDetection();
        if (o == null) {
            return;
        }
        String oat = at + ".outlierDetection";
        if (c.mode() == Mode.TCP) {
            errors.add(oat + ": only allowed for mode http (it judges HTTP answers)");
        }
        range(oat + ".consecutive5xx", o.consecutive5xx(), 0, MAX_CONSECUTIVE, errors);
        range(oat + ".consecutiveGatewayFailures", o.consecutiveGatewayFailures(), 0, MAX_CONSECUTIVE, errors);
        range(oat + ".baseEjectionMs", o.baseEjectionMs(), 1, MAX_TIME_MS, errors);
        range(oat + ".maxEjectionPercent", o.maxEjectionPercent(), 0, 100, errors);
        range(oat + ".maxEjectionMs", o.maxEjectionMs(), 1, MAX_TIME_MS, errors);
        if (o.maxEjectionMs() != null && o.maxEjectionMs() < o.baseEjectionMsOrDefault()) {
            errors.add(oat + ".maxEjectionMs: " + o.maxEjectionMs() + " is shorter than baseEjectionMs "
                    + o.baseEjectionMsOrDefault());
        }
    }

    /** Each value one of {@link RetryOn#ALLOWED}, once; an empty list retries nothing. */
    private static void retryOn(String at, List<String> values, List<String> errors) {
        if (values == null) {
            return;
        }
        for (int i = 0; i < values.size(); i++) {
            String value = values.get(i);
            if (value == null || !RetryOn.ALLOWED.contains(value)) { // List.of's contains refuses null
                errors.add(at + "[" + i + "]: " + RetryOn.problem(value));
            } else if (values.indexOf(value) < i) {
                errors.add(at + "[" + i + "]: '" + value + "' is listed twice");
            }
        }
    }

    static void node(String at, ClusterConfig c, NodeConfig n, List<String> errors) {
        range(at + ".maxConnections", n.maxConnections(), 1, MAX_NODE_CONNECTIONS, errors);
        if (c.mode() == Mode.TCP) {
            httpOnly(at + ".maxConnections", n.maxConnections(), "it counts HTTP requests in flight", errors);
        }
        healthCheck(at + ".healthCheck", n.healthCheck(), errors);
        if (n.healthCheck() != null) { // judged as merged: the node may set the timeout, the cluster the interval
            timeoutWithinInterval(at + ".healthCheck", HealthCheckConfig.merge(c.healthCheck(), n.healthCheck()),
                    errors);
        }
    }

    private static void healthCheck(String at, HealthCheckConfig h, List<String> errors) {
        if (h == null) {
            return;
        }
        if (h.path() != null && (!h.path().startsWith("/") || h.path().chars().anyMatch(ch -> ch <= ' ' || ch >= 0x7f))) {
            errors.add(at + ".path: '" + h.path() + "' must start with '/' and contain no spaces or control characters");
        }
        range(at + ".intervalMs", h.intervalMs(), 10, MAX_TIME_MS, errors);
        range(at + ".timeoutMs", h.timeoutMs(), 1, MAX_TIME_MS, errors);
        range(at + ".rise", h.rise(), 1, MAX_RISE_FALL, errors);
        range(at + ".fall", h.fall(), 1, MAX_RISE_FALL, errors);
        if (h.expectStatus() != null) {
            try {
                StatusRanges.parse(h.expectStatus());
            } catch (IllegalArgumentException e) {
                errors.add(at + ".expectStatus: " + e.getMessage());
            }
        }
    }

    /** A check still running when the next one is due would pile checks up on a hung node. */
    private static void timeoutWithinInterval(String at, HealthCheckConfig h, List<String> errors) {
        if (h.timeoutMsOrDefault() > h.intervalMsOrDefault()) {
            errors.add(at + ".timeoutMs: " + h.timeoutMsOrDefault() + " is longer than intervalMs "
                    + h.intervalMsOrDefault());
        }
    }

    private static void httpOnly(String at, Object value, String why, List<String> errors) {
        if (value != null) {
            errors.add(at + ": only allowed for mode http (" + why + ")");
        }
    }

    private static void range(String at, Integer value, int min, int max, List<String> errors) {
        if (value != null && (value < min || value > max)) {
            errors.add(at + ": " + value + " out of range " + min + ".." + max);
        }
    }
}
