package io.loadwise.sim.agent;

/**
 * How simulated node agents report (seed 001 §2.5.3: load information is stale by the time it is used).
 *
 * @param periodMillis how often every agent takes a sample; 0 turns agents off
 * @param delayMillis how long a sample takes to reach the dispatcher
 * @param noise relative standard deviation of the multiplicative Gaussian noise on every metric
 * @param expiryMillis samples older than this (since they were taken) read as missing
 */
public record AgentSettings(long periodMillis, long delayMillis, double noise, long expiryMillis) {

    public static final AgentSettings DEFAULT = new AgentSettings(1000, 0, 0.0, 3000);

    public AgentSettings {
        if (periodMillis < 0 || delayMillis < 0 || expiryMillis <= 0) {
            throw new IllegalArgumentException("agent period and delay must be >= 0 and expiry > 0 ms");
        }
        if (!(noise >= 0) || Double.isInfinite(noise)) {
            throw new IllegalArgumentException("agent noise must be >= 0, got " + noise);
        }
    }
}
