package io.loadwise.policy.builtin;

import io.loadwise.policy.PolicyOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of the adaptive policy, validated and converted to nanoseconds once per picker build.
 *
 * @param load Equation 2 with its exclusion thresholds ({@code queueThreshold}, {@code heapThreshold})
 * @param slowStartNanos ramp of a node that joins or comes back ({@code slowStartMs}); 0 turns it off
 * @param fadeStartNanos agent sample age from which its headroom starts to fade ({@code agentFadeStartMs})
 * @param fadeEndNanos age at which it has faded out completely ({@code agentFadeEndMs})
 */
record AdaptiveSettings(JvmAwareLoad load, long slowStartNanos, long fadeStartNanos, long fadeEndNanos) {

    /** JIT warm-up of a Java server's hot paths under load, and ten agent polls at the default 1 s. */
    static final double DEFAULT_SLOW_START_MS = 10_000;
    /** One default agent poll interval: a sample younger than that is as fresh as polling makes it. */
    static final double DEFAULT_FADE_START_MS = 1_000;
    /** The default agent expiry: a sample this old reads as missing anyway. */
    static final double DEFAULT_FADE_END_MS = 3_000;
    /** Upper bound of the three time options: one hour. */
    static final double MAX_MS = 3_600_000;

    private static final List<String> OPTION_NAMES = List.of("queueThreshold", "heapThreshold", "slowStartMs",
            "agentFadeStartMs", "agentFadeEndMs");

    static List<String> validate(PolicyOptions options) {
        List<String> errors = new ArrayList<>(options.rejectUnknown(OPTION_NAMES));
        options.checkRange("queueThreshold", 0, 100, errors);
        options.checkRange("heapThreshold", 0, 100, errors);
        options.checkRange("slowStartMs", 0, MAX_MS, errors);
        options.checkRange("agentFadeStartMs", 0, MAX_MS, errors);
        options.checkRange("agentFadeEndMs", 0, MAX_MS, errors);
        double start = options.get("agentFadeStartMs", DEFAULT_FADE_START_MS);
        double end = options.get("agentFadeEndMs", DEFAULT_FADE_END_MS);
        if (errors.isEmpty() && end <= start) {
            errors.add("policyOptions.agentFadeEndMs: " + end + " must be greater than agentFadeStartMs (" + start + ")");
        }
        return errors;
    }

    /** The settings of validated options. */
    static AdaptiveSettings from(PolicyOptions options) {
        return new AdaptiveSettings(new JvmAwareLoad(
                options.get("queueThreshold", JvmAwareLoad.DEFAULT_QUEUE_THRESHOLD),
                options.get("heapThreshold", JvmAwareLoad.DEFAULT_HEAP_THRESHOLD)),
                nanos(options.get("slowStartMs", DEFAULT_SLOW_START_MS)),
                nanos(options.get("agentFadeStartMs", DEFAULT_FADE_START_MS)),
                nanos(options.get("agentFadeEndMs", DEFAULT_FADE_END_MS)));
    }

    private static long nanos(double millis) {
        return Math.round(millis * 1e6);
    }
}
