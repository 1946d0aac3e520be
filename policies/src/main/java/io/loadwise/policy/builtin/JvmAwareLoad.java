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
     * {@code gcTimeThreshold}'s default: 100, off; 25 is the figure to set. Set, a node whose JVM spent more than
     * that share of the last second collecting is saturated and avoided while the others have room ({@link
     * AdaptiveMemory#gcOnly}). Healthy Tomcat nodes read 0-3 %, one collecting half its time 45-75 % every second;
     * with 25 that node got no request and the run's p99 was 1.05 × the run without it, where the running share
     * alone gave 2.2 × (20 JMeter threads, benchmarks/results/2026-11-29-gc-thrash-1s-t20). Why still off: at 50
     * threads, where the two other nodes cannot carry the load without it, they overflowed and answered 502 while
     * the node was avoided: 71, 5,836 and 92 failed requests in three runs, least connections 6-7
     * (benchmarks/results/2026-11-29-gc-thrash-1s-t50). Set it for a cluster with room for a node's share.
     */
    static final double DEFAULT_GC_TIME_THRESHOLD = 100;
    /**
     * {@code oldGenThreshold}'s default: 100, off. The heap threshold already reads the old generation after
     * collection where the agent reports it ({@link #heapReading}) and holds such a node at the work it had; set
     * (90 is the figure to start from), a node whose old generation is fuller than that right after a collection
     * is avoided outright while the others have room, as for {@code gcTimeThreshold}.
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

    /** Whether the heap is over {@code heapThreshold - margin} points (the seed's: the raw heap in use). */
    boolean heapOver(AgentSample sample, double margin) {
        return sample != null && sample.value(PolicyMetric.JVM_HEAP_USED) > heapThreshold - margin;
    }

    /**
     * Whether the heap as adaptive and jvm-aware judge it ({@link #heapReading}) is over {@code heapThreshold -
     * margin} points.
     */
    boolean judgedHeapOver(AgentSample sample, double margin) {
        return sample != null && sample.value(heapReading(sample)) > heapThreshold - margin;
    }

    /**
     * The reading adaptive and jvm-aware judge a node's heap by against {@code heapThreshold}: the old generation
     * after the last collection ({@code JVM_OLD_AFTER_GC%}) where the agent reports it, the heap in use ({@code
     * JVM_HEAP_USED%}) where it does not. Why: the heap in use is a saw-tooth between collections, up with every
     * allocation and down at every collection, and a busy node's crosses 85 % in every young cycle; what survives
     * a collection is the live data, and a node whose live data fills its heap is the one an OutOfMemoryError is
     * coming to. In the robustness grid the raw heap's noise held nodes at ρ 0.95 where least connections was
     * ahead (benchmarks/results/2026-11-29-grid-misses). Equation 2's mean keeps the heap in use, as the seed has it.
     */
    static PolicyMetric heapReading(AgentSample sample) {
        return Double.isNaN(sample.value(PolicyMetric.OLD_AFTER_GC)) ? PolicyMetric.JVM_HEAP_USED
                : PolicyMetric.OLD_AFTER_GC;
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
