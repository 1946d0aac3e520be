package io.loadwise.bench.sweep;

/**
 * The workload's timing (seed 001 figure 45) scaled by one factor: at scale 1, 30 threads start 3 every
 * 10 s for 90 s, run together for 120 s and stop 3 every 10 s (5 minutes). JMeter takes whole seconds,
 * so the ramp step and the sustain time are rounded (the sustain to at least 1 s); below scale 0.05 the
 * step rounds to 0 and all threads start and stop together, which only the {@code --quick} smoke run
 * uses. {@link #describe()} prints what was actually used.
 *
 * @param scale           the requested scale (1 = the seed's durations)
 * @param threads         sampler threads (a multiple of {@link #STEPS})
 * @param rampStepSeconds seconds between two starts (and two stops) of threads/10 threads
 * @param sustainSeconds  seconds with all threads running
 */
public record Durations(double scale, int threads, int rampStepSeconds, int sustainSeconds) {

    /** Thread groups in the plan: threads/STEPS threads start (and stop) per step. */
    public static final int STEPS = 10;

    public static final int SEED_THREADS = 30;
    public static final int SEED_RAMP_STEP_SECONDS = 10;
    public static final int SEED_SUSTAIN_SECONDS = 120;

    public Durations {
        if (!(scale > 0) || scale > 10) {
            throw new IllegalArgumentException("duration scale must be in (0, 10], got " + scale);
        }
        if (threads < STEPS || threads % STEPS != 0) {
            throw new IllegalArgumentException("threads must be a positive multiple of " + STEPS
                    + " (the plan starts threads/" + STEPS + " per step), got " + threads);
        }
        if (rampStepSeconds < 0 || sustainSeconds < 1) {
            throw new IllegalArgumentException("the ramp step must be at least 0 s and the sustain at least 1 s");
        }
    }

    /** The seed's timing scaled by {@code scale}, with {@code threads} threads. */
    public static Durations scaled(double scale, int threads) {
        if (!(scale > 0) || scale > 10) {
            throw new IllegalArgumentException("duration scale must be in (0, 10], got " + scale);
        }
        return new Durations(scale, threads, (int) Math.round(SEED_RAMP_STEP_SECONDS * scale),
                Math.max(1, (int) Math.round(SEED_SUSTAIN_SECONDS * scale)));
    }

    /** Seconds from the first thread's start to the last thread's stop. */
    public int totalSeconds() {
        return 2 * (STEPS - 1) * rampStepSeconds + sustainSeconds;
    }

    public String describe() {
        if (rampStepSeconds == 0) {
            return String.format(java.util.Locale.ROOT, "duration scale %s: %d threads, all started at once and run"
                    + " for %d s, no ramp (the seed: 300 s with 90 s ramps)", trim(scale), threads, sustainSeconds);
        }
        return String.format(java.util.Locale.ROOT,
                "duration scale %s: %d threads, %d started every %d s, all %d for %d s, %d stopped every %d s"
                        + " (%d s in all; the seed: 300 s)",
                trim(scale), threads, threads / STEPS, rampStepSeconds, threads, sustainSeconds, threads / STEPS,
                rampStepSeconds, totalSeconds());
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
