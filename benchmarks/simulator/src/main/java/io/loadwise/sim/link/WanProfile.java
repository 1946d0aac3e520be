package io.loadwise.sim.link;

import java.util.List;

/**
 * One emulated wide-area network between the server and a group of clients: a round-trip time with its
 * jitter, and a packet loss rate (seed 002 Table 2, applied there with netem).
 *
 * @param name e.g. {@code WAN1}
 * @param rttSeconds mean round-trip time
 * @param jitterSeconds each request's RTT is drawn uniformly from rtt ± jitter
 * @param lossRate packet loss probability, 0 < p < 1
 */
public record WanProfile(String name, double rttSeconds, double jitterSeconds, double lossRate) {

    /** Seed 002 Table 2: WAN1-WAN6, 50 ± 10 ms / 0.5 % up to 350 ± 50 ms / 3 %. */
    public static final List<WanProfile> SEED002 = List.of(
            new WanProfile("WAN1", 0.050, 0.010, 0.005),
            new WanProfile("WAN2", 0.100, 0.020, 0.010),
            new WanProfile("WAN3", 0.150, 0.030, 0.015),
            new WanProfile("WAN4", 0.200, 0.040, 0.020),
            new WanProfile("WAN5", 0.250, 0.040, 0.025),
            new WanProfile("WAN6", 0.350, 0.050, 0.030));

    public WanProfile {
        if (!(rttSeconds > 0) || !(jitterSeconds >= 0) || !(jitterSeconds < rttSeconds)) {
            throw new IllegalArgumentException(name + ": need RTT > 0 and 0 <= jitter < RTT");
        }
        if (!(lossRate > 0 && lossRate < 1)) {
            throw new IllegalArgumentException(name + ": loss rate must be within (0, 1), got " + lossRate);
        }
    }

    /**
     * Steady-state TCP congestion window in segments under random loss p, √(3/(2p)) (Mathis, Semke, Mahdavi
     * &amp; Ott, "The macroscopic behavior of the TCP congestion avoidance algorithm", 1997): 17.3 segments
     * for WAN1, 7.1 for WAN6. A flow's rate on an idle link is window × MSS / RTT.
     */
    public double windowSegments() {
        return Math.sqrt(1.5 / lossRate);
    }
}
