package io.loadwise.scenario;

import java.util.Locale;

/**
 * VCN3's HTTP request queue ({@code --vcn3-queue}) in the scenarios that halve its worker threads (http-threads,
 * combined): one setting for {@code bench sweep} and {@code bench calibrate} (a sweep's sweep.json records its
 * {@link #key}) and for {@code simulate --scenario}, which models it and reads it back from a sweep.json.
 * {@link #SEED} keeps the full node's queue, as seed 001 Table 9 does. {@link #HALF} halves it with the threads:
 * a departure from Table 9. On the seed's testbed every node had its own CPUs, so halving the threads halved the
 * throughput; here the nodes share the machine's cores, so threads cap only concurrency, and a node refuses
 * beyond threads + queue. With the seed's queue VCN3 holds 6 + 12 = 18 of a full node's 24, not half, and no
 * client count both overloads VCN3 under round robin (threads / 3 > 18) and keeps the 2:2:1 control within the
 * full nodes' 24 (2 threads / 5). Halving the queue too makes VCN3 hold 6 + 6 = 12 (benchmarks/README.md).
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
