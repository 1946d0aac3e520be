package io.loadwise.sim.link;

/**
 * The path of one request's client: which WAN it came over, its round-trip time, and what TCP makes of
 * that path.
 *
 * @param wan index into the run's WAN profiles
 * @param rttSeconds this request's RTT (the profile's mean ± jitter)
 * @param cwndBytes congestion window in bytes (segments × MSS), what the server reads from TCP_INFO
 */
public record ClientPath(int wan, double rttSeconds, double cwndBytes) {

    /** Ethernet MSS, seed 002's example. */
    public static final int MSS = 1460;

    /** Highest rate the flow reaches on an idle link: one window per round trip. */
    public double rateCapBytesPerSecond() {
        return cwndBytes == Double.POSITIVE_INFINITY ? Double.POSITIVE_INFINITY : cwndBytes / rttSeconds;
    }
}
