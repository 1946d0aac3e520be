package io.loadwise.sim.link;

/**
 * The order in which the server's bottleneck link drains the responses in progress (seed 002). Each
 * discipline maps a flow to a priority class; classes are served in strict priority, flows in one class
 * share what is left fairly (a pfifo band interleaves their packets), and no flow sends faster than its
 * TCP window allows, so capacity a capped flow cannot use goes to the next flows: the link is
 * work-conserving under every discipline.
 */
public enum ResponseDiscipline {

    /**
     * Linux's default pfifo_fast: every packet in one band, each flow gets a fair share (processor sharing).
     * Seed 002's baseline.
     */
    PS("ps"),
    /** Whole responses in arrival order: each response drains before the next one starts (not in seed 002). */
    FIFO("fifo"),
    /**
     * Kernel-level SRPT (Harchol-Balter et al.): class by remaining bytes, cutoffs
     * 0, 1000, 2000, 5000, 15 000, 80 000, 10^9 B (seed 002 §3.2), re-classified every 8 KB sent.
     */
    SRPT("srpt"),
    /**
     * Seed 002's SRRT: class by the estimated remaining response time RRT = RTT·(1 + ⌊RFS/cwnd⌋) in whole
     * milliseconds (its Appendix B code, integer division), cutoffs 0, 100, 500, 1000, 20 000, 80 000,
     * 10^6 ms (§3.2), re-classified every 8 KB sent.
     */
    SRRT("srrt");

    /** Apache's IOBUFSIZE: both size-based disciplines re-classify a flow after every 8 KB written. */
    public static final long RECLASSIFY_BYTES = 8192;

    private static final long[] SRPT_CUTOFFS_BYTES = {0, 1000, 2000, 5000, 15_000, 80_000, 1_000_000_000};
    private static final long[] SRRT_CUTOFFS_MS = {0, 100, 500, 1000, 20_000, 80_000, 1_000_000};

    private final String id;

    ResponseDiscipline(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static ResponseDiscipline of(String id) {
        for (ResponseDiscipline d : values()) {
            if (d.id.equals(id)) {
                return d;
            }
        }
        throw new IllegalArgumentException("--scheduling " + id + ": unknown discipline, expected ps, fifo, srpt or srrt");
    }

    /** Whether the class changes while a response is sent (so the link re-classifies every 8 KB). */
    boolean sizeBased() {
        return this == SRPT || this == SRRT;
    }

    /**
     * The flow's class, lower first. PS: 0 for all; FIFO: its arrival order; SRPT and SRRT: the band the
     * thesis's loop {@code while (value > prios[i] && i <= 6) i++} picks, capped at the last band.
     */
    double priority(long arrivalOrder, double remainingBytes, ClientPath path) {
        return switch (this) {
            case PS -> 0;
            case FIFO -> arrivalOrder;
            case SRPT -> band((long) Math.ceil(remainingBytes), SRPT_CUTOFFS_BYTES);
            case SRRT -> {
                long rttMs = (long) (path.rttSeconds() * 1e3);
                long rounds = (long) (Math.ceil(remainingBytes) / path.cwndBytes());
                yield band(rttMs + rounds * rttMs, SRRT_CUTOFFS_MS);
            }
        };
    }

    private static int band(long value, long[] cutoffs) {
        int i = 0;
        while (i < cutoffs.length - 1 && value > cutoffs[i]) {
            i++;
        }
        return i;
    }
}
