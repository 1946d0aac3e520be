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

    /**
     * The adaptive policy's default {@code queueThreshold}: 75, where jvm-aware keeps the seed's 55. At 50
     * clients on nodes of 12 workers and 16 queue places, the two full nodes hold 20 each when the third
     * (half the JDBC pool) holds its 10: 8 queued, and a ninth crosses 55 %. Each full node was then held
     * at its sampled work and the rest went to the node with the small pool, whose waiters timed out
     * (simulated jdbc scenario, 3 seeds, with the slowness factor: threshold 55, 22.0 failures; 75, 1.3;
     * with τ 5 s 65 and 75 gave the same 3.3). A queue 75 % full still has a quarter of its places
     * free; the slot estimate holds a node before it refuses. At the 60-client defaults 75 fails no
     * more than 55 (benchmarks/results/2026-11-24-adaptive-jdbc-sim).
     */
    static final double DEFAULT_QUEUE_THRESHOLD = 75;
    /** JIT warm-up of a Java server's hot paths under load, and ten agent polls at the default 1 s. */
    static final double DEFAULT_SLOW_START_MS = 10_000;
    /** One default agent poll interval: a sample younger than that is as fresh as polling makes it. */
    static final double DEFAULT_FADE_START_MS = 1_000;
    /** The default agent expiry: a sample this old reads as missing anyway. */
    static final double DEFAULT_FADE_END_MS = 3_000;
    /** Upper bound of the three time options: one hour. */
    static final double MAX_MS = 3_600_000;

    private static final List<String> OPTION_NAMES = List.of("queueThreshold", "heapThreshold", "gcTimeThreshold",
            "oldGenThreshold", "slowStartMs", "agentFadeStartMs", "agentFadeEndMs");

    static List<String> validate(PolicyOptions options) {
        List<String> errors = new ArrayList<>(options.rejectUnknown(OPTION_NAMES));
        options.checkRange("queueThreshold", 0, 100, errors);
        options.checkRange("heapThreshold", 0, 100, errors);
        options.checkRange("gcTimeThreshold", 0, 100, errors);
        options.checkRange("oldGenThreshold", 0, 100, errors);
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
        return new AdaptiveSettings(JvmAwareLoad.from(options, DEFAULT_QUEUE_THRESHOLD),
                nanos(options.get("slowStartMs", DEFAULT_SLOW_START_MS)),
                nanos(options.get("agentFadeStartMs", DEFAULT_FADE_START_MS)),
                nanos(options.get("agentFadeEndMs", DEFAULT_FADE_END_MS)));
    }

    private static long nanos(double millis) {
        return Math.round(millis * 1e6);
    }
}
