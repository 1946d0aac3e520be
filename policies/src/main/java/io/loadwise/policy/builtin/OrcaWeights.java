package io.loadwise.policy.builtin;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyMetric;
import io.loadwise.policy.PolicyOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * gRPC proposal A58's weight of one load report, and its three time and penalty options, validated and
 * converted once per picker build:
 * <pre>
 * weight = qps / (utilization + eps / qps × errorUtilizationPenalty)
 * utilization = application_utilization if it is above 0, else cpu_utilization
 * </pre>
 * 0, "no weight", when qps or utilization is 0 or missing: such a report is ignored, as gRPC ignores it.
 *
 * @param blackoutNanos how long a node must have reported without a break before its weight is used
 *     ({@code blackoutPeriodMs}, A58's {@code blackout_period}, 10 s): the first reports of a node that just
 *     started come from a cold JIT and an empty cache, and one lucky second would earn it a flood
 * @param expirationNanos how old the last report may be before the weight is dropped and the blackout
 *     starts again ({@code weightExpirationPeriodMs}, {@code weight_expiration_period}, 3 min)
 * @param errorUtilizationPenalty {@code errorUtilizationPenalty} ({@code error_utilization_penalty}, 1.0):
 *     how much utilization each error per request counts for, so a node answering fast with errors does not
 *     look like a fast node
 */
record OrcaWeights(long blackoutNanos, long expirationNanos, double errorUtilizationPenalty) {

    static final double DEFAULT_BLACKOUT_MS = 10_000;
    static final double DEFAULT_EXPIRATION_MS = 180_000;
    static final double DEFAULT_PENALTY = 1.0;
    /** Upper bound of the two periods: one hour. */
    static final double MAX_MS = 3_600_000;
    /** Upper bound of the penalty: a node with 1 % errors then counts as 100 % busier. */
    static final double MAX_PENALTY = 10_000;

    /** A58's {@code weight_update_period}: the dispatcher rebuilds the picker at least this often. */
    static final double DEFAULT_UPDATE_MS = 1_000;
    /** A58's floor for the update period (it raises smaller values to it; here they are refused). */
    static final double MIN_UPDATE_MS = 100;

    static final List<String> OPTION_NAMES = List.of("blackoutPeriodMs", "weightExpirationPeriodMs",
            "errorUtilizationPenalty", "weightUpdatePeriodMs");

    static List<String> validate(PolicyOptions options) {
        List<String> errors = new ArrayList<>(options.rejectUnknown(OPTION_NAMES));
        options.checkRange("blackoutPeriodMs", 0, MAX_MS, errors);
        options.checkRange("weightExpirationPeriodMs", 1, MAX_MS, errors);
        options.checkRange("errorUtilizationPenalty", 0, MAX_PENALTY, errors);
        options.checkRange("weightUpdatePeriodMs", MIN_UPDATE_MS, MAX_MS, errors);
        return errors;
    }

    /** {@code weightUpdatePeriodMs} of validated options, in milliseconds. */
    static long updatePeriodMillis(PolicyOptions options) {
        return Math.round(options.get("weightUpdatePeriodMs", DEFAULT_UPDATE_MS));
    }

    /** The settings of validated options. */
    static OrcaWeights from(PolicyOptions options) {
        return new OrcaWeights(nanos(options.get("blackoutPeriodMs", DEFAULT_BLACKOUT_MS)),
                nanos(options.get("weightExpirationPeriodMs", DEFAULT_EXPIRATION_MS)),
                options.get("errorUtilizationPenalty", DEFAULT_PENALTY));
    }

    private static long nanos(double millis) {
        return Math.round(millis * 1e6);
    }

    /** The weight a report asks for, or 0 when it asks for none (missing or zero qps or utilization). */
    double reported(AgentSample sample) {
        double qps = sample.value(PolicyMetric.REQUEST_RATE);
        double application = sample.value(PolicyMetric.APP_UTILIZATION) / 100;
        double utilization = application > 0 ? application : sample.value(PolicyMetric.OS_CPU_USED) / 100;
        if (!(qps > 0) || !(utilization > 0)) { // NaN (not reported) fails both comparisons
            return 0;
        }
        double eps = sample.value(PolicyMetric.ERROR_RATE);
        double penalty = eps > 0 ? eps / qps * errorUtilizationPenalty : 0;
        double weight = qps / (utilization + penalty);
        return Double.isFinite(weight) ? weight : 0;
    }
}
