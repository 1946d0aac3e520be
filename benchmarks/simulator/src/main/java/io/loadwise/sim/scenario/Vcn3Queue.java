package io.loadwise.sim.scenario;

import java.util.Locale;

/**
 * VCN3's request queue in the scenarios that halve its worker threads (http-threads, combined), as {@code bench
 * sweep --vcn3-queue} sets it: {@link #SEED} keeps the full node's queue (seed 001 Table 9), {@link #HALF} halves it
 * with the threads, a departure from Table 9. The nodes share the machine's cores, so threads cap only concurrency
 * and a node refuses beyond threads + queue: with the seed's queue VCN3 holds 18 of a full node's 24, not half
 * (benchmarks/README.md).
 */
public enum Vcn3Queue {
    SEED,
    HALF;

    /** The option's value: seed or half. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** VCN3's queue given a full node's, in a scenario that halves its worker threads. */
    public int queueWithHalfThreads(int fullQueue) {
        return this == HALF ? Math.max(1, fullQueue / 2) : fullQueue;
    }

    public static Vcn3Queue parse(String text) {
        for (Vcn3Queue q : values()) {
            if (q.key().equalsIgnoreCase(text)) {
                return q;
            }
        }
        throw new IllegalArgumentException("--vcn3-queue: '" + text + "' is neither seed nor half");
    }
}
