package io.loadwise.policy.builtin;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.PolicyMetric;
import io.loadwise.policy.PolicyOptions;
import java.util.List;

/**
 * Equation 2 of seed 001 (the jQoStdV1 load):
 * <pre>
 * load = mean(OS_CPU_USED%, OS_CPU_IOWAIT%, AMX_CONNS_Q_USED%, AMX_CONNS_Q_THRBSY%, AMX_JDBC_ACTC%, JVM_HEAP_USED%)
 * load = 100 if AMX_CONNS_Q_USED% &gt; queueThreshold (55) or JVM_HEAP_USED% &gt; heapThreshold (85)
 * </pre>
 * A node whose load is 100 is excluded from assignment (JPR-02).
 *
 * <p>A metric the node does not report (a server without a JDBC pool, say) is left out of the mean
 * rather than counted as 0, which would make such a node look idle. A threshold whose metric is not
 * reported cannot trip. A sample with none of the six metrics gives NaN: the node is "unknown".
 */
record JvmAwareLoad(double queueThreshold, double heapThreshold, double gcTimeThreshold, double oldGenThreshold) {

    static final List<String> OPTION_NAMES = List.of("queueThreshold", "heapThreshold", "gcTimeThreshold",
            "oldGenThreshold");

    static final double DEFAULT_QUEUE_THRESHOLD = 55;
    static final double DEFAULT_HEAP_THRESHOLD = 85;
    /**
     * {@code gcTimeThreshold}'s default: 100, off (no share of an interval is over 100 %). Set, a node
     * whose JVM spent more than that share of the last second collecting is saturated. Why off:
     * on real Tomcat nodes at the sweep's default settings (60 clients, 96 MB heaps, 450 KB sessions, a
     * CPU-bound machine) 25 % and an old-generation threshold of 90 held nodes that served on, and the
     * others took their work and refused it: adaptive failed 548, 1,224 and 990 requests in three
     * baseline runs, 180, 396 and 1,453 with both off, least connections 37-75
     * (benchmarks/results/2026-11-28-gc-pressure/NOTES.md). 25 is a starting point for a node that must
     * not serve while collecting: a healthy server spends a few per cent.
     */
    static final double DEFAULT_GC_TIME_THRESHOLD = 100;
    /**
     * {@code oldGenThreshold}'s default: 100, off, for the reason of {@link #DEFAULT_GC_TIME_THRESHOLD}. Set
     * (90 is the figure to start from), a node whose old generation is fuller than that right after a
     * collection is saturated: only live data survives a collection, and at 90 % each frees little.
     */
    static final double DEFAULT_OLD_GEN_THRESHOLD = 100;

    /** The load of a saturated node. */
    static final double SATURATED = 100;

    private static final PolicyMetric[] MEAN_OF = {
        PolicyMetric.OS_CPU_USED, PolicyMetric.OS_CPU_IOWAIT, PolicyMetric.AMX_CONNS_Q_USED,
        PolicyMetric.AMX_CONNS_Q_THRBSY, PolicyMetric.AMX_JDBC_ACTC, PolicyMetric.JVM_HEAP_USED,
    };

    /** The seed's two thresholds: jvm-aware-classic's options. */
    static final List<String> SEED_OPTION_NAMES = List.of("queueThreshold", "heapThreshold");

    /** jvm-aware-classic's options: the seed's thresholds only. */
    static List<String> validateSeed(PolicyOptions options) {
        List<String> errors = options.rejectUnknown(SEED_OPTION_NAMES);
        options.checkRange("queueThreshold", 0, 100, errors);
        options.checkRange("heapThreshold", 0, 100, errors);
        return errors;
    }

    static List<String> validate(PolicyOptions options) {
        List<String> errors = options.rejectUnknown(OPTION_NAMES);
        options.checkRange("queueThreshold", 0, 100, errors);
        options.checkRange("heapThreshold", 0, 100, errors);
        options.checkRange("gcTimeThreshold", 0, 100, errors);
        options.checkRange("oldGenThreshold", 0, 100, errors);
        return errors;
    }

    static JvmAwareLoad from(PolicyOptions options) {
        return from(options, DEFAULT_QUEUE_THRESHOLD);
    }

    /** The load of these options, {@code queueThreshold} defaulting to {@code defaultQueueThreshold}. */
    static JvmAwareLoad from(PolicyOptions options, double defaultQueueThreshold) {
        return new JvmAwareLoad(options.get("queueThreshold", defaultQueueThreshold),
                options.get("heapThreshold", DEFAULT_HEAP_THRESHOLD),
                options.get("gcTimeThreshold", DEFAULT_GC_TIME_THRESHOLD),
                options.get("oldGenThreshold", DEFAULT_OLD_GEN_THRESHOLD));
    }

    /** The node's load 0..100 ({@link #SATURATED} means excluded), or NaN when it is unknown. */
    double load(AgentSample sample) {
        if (sample == null) {
            return Double.NaN;
        }
        double sum = 0;
        int reported = 0;
        for (PolicyMetric metric : MEAN_OF) {
            double v = sample.value(metric);
            if (!Double.isNaN(v)) {
                sum += v;
                reported++;
            }
        }
        if (reported == 0) {
            return Double.NaN;
        }
        if (queueOver(sample) || heapOver(sample)) { // the seed's; adaptive and jvm-aware add the GC figures (AdaptiveMemory)
            return SATURATED;
        }
        return Math.min(SATURATED, sum / reported);
    }

    /** Whether the sample's request queue is over {@code queueThreshold} (an unreported metric never is: NaN &gt; x is false). */
    boolean queueOver(AgentSample sample) {
        return queueOver(sample, 0);
    }

    /** Whether the sample's heap is over {@code heapThreshold} (never for an unreported metric). */
    boolean heapOver(AgentSample sample) {
        return heapOver(sample, 0);
    }

    /** Whether the request queue is over {@code queueThreshold - margin} points. */
    boolean queueOver(AgentSample sample, double margin) {
        return sample != null && sample.value(PolicyMetric.AMX_CONNS_Q_USED) > queueThreshold - margin;
    }

    /** Whether the heap is over {@code heapThreshold - margin} points. */
    boolean heapOver(AgentSample sample, double margin) {
        return sample != null && sample.value(PolicyMetric.JVM_HEAP_USED) > heapThreshold - margin;
    }

    /**
     * Whether the sample's JVM is over a GC threshold less {@code margin} points: its time in collections
     * ({@code gcTimeThreshold}) or its old generation after a collection ({@code oldGenThreshold}); never
     * for an unreported metric.
     */
    boolean gcOver(AgentSample sample, double margin) {
        return sample != null && (sample.value(PolicyMetric.GC_TIME) > gcTimeThreshold - margin
                || sample.value(PolicyMetric.OLD_AFTER_GC) > oldGenThreshold - margin);
    }

    /** The Equation 2 metrics, in the order of the mean. */
    static PolicyMetric[] meanOf() {
        return MEAN_OF.clone();
    }

    /** {@link #load} of every node of the snapshot, in snapshot order: computed once per picker rebuild. */
    double[] loads(ClusterSnapshot snapshot) {
        double[] load = new double[snapshot.size()];
        for (int i = 0; i < load.length; i++) {
            load[i] = load(snapshot.node(i).agentSample());
        }
        return load;
    }
}
