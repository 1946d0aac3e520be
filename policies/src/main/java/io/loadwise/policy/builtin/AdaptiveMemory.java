package io.loadwise.policy.builtin;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.PolicyMetric;

/**
 * What one adaptive picker remembers for the next (carried through {@code newPicker(…, previous, …)}, as
 * Finagle's balancer reuses its nodes across rebuilds): per node, the agent sample it saw and since when,
 * whether the node was usable, since when it ramps up, and its smoothed response time per request in
 * flight ({@link #perRequestMillis}).
 *
 * <p>The age of a sample is measured on the picker's own clock from the build that first saw it (the
 * same object), not from the sample's timestamp, which is the agent's wall clock and may be skewed. It
 * is therefore late by at most one rebuild interval, and the dispatcher rebuilds after every batch of
 * samples.
 *
 * <p>A node ramps up (slow start) when it joins a cluster that already had this policy, or when it was
 * unusable (down, disabled, draining) at the previous build and is usable now. A cluster that switches
 * to this policy, or starts with it, does not ramp: there is no warm node to protect it from.
 */
final class AdaptiveMemory {

    /** {@link #rampStartNanos} of a node that does not ramp. */
    static final long NOT_RAMPING = Long.MIN_VALUE;
    /** {@link #perRequestMeasuredNanos} of a node never measured. */
    static final long NEVER = Long.MIN_VALUE;
    /**
     * τ of the smoothing of {@link #perRequestMillis} across builds: 10 s, the peak-EWMA's (Finagle's)
     * decay time. Simulated (jdbc scenario, 50 clients, 3 seeds): unsmoothed, the factor followed each
     * second's mean and moved connections between nodes in waves (VCN1 10 → 24 → 10 connections from one
     * second to the next, 28.7 failures); τ 2 s 5.3, 5 s 3.3, 10 s 1.3. As the slowness factor is
     * measured only while it matters (every worker busy), this is not how fast it notices a node
     * turning slow at low load: there the peak-EWMA tie-break does.
     */
    static final double PER_REQUEST_TAU_NANOS = 10e9;
    /**
     * τ of the smoothing of a node's Equation 2 load across its samples ({@link #smoothedLoad}): 1 s, ten
     * of the agents' 100 ms samples. Why: on real Tomcat nodes the queue metric counts socket events as
     * well as requests, so two equal nodes' consecutive samples differ by up to 75 queue points, and a
     * headroom read from each raw sample moved the new connections from one big node to the other at
     * every sample (calibrated sweep, combined: 7/23 then 22/9 selections a second where WLC gave 15/17).
     * A node's sustained load still shows within a second or two; saturation, which must act at once,
     * is read from the raw sample ({@link #saturated}).
     */
    static final double LOAD_TAU_NANOS = 1e9;

    final String[] names;
    final AgentSample[] samples;
    final long[] sampleSeenNanos;
    /**
     * Per node whose sample says saturated: the work in flight it may hold, {@link AdaptiveCost#excluded}.
     * Estimated as the smaller of the live count at the build that first saw the sample and at the build
     * before: the sample was taken between those two builds (it arrives up to a poll period late), and
     * the smaller count errs towards less work. A node saturated by its heap alone keeps the count of the
     * first such sample ({@link #heapOnly}).
     */
    final int[] activeAtSample;
    /**
     * Per node: whether it counts as saturated (load 100): {@link #saturatedNow}, from its filtered
     * readings ({@link #filtered}) confirmed by the raw sample, with hysteresis.
     */
    final boolean[] saturated;
    /**
     * Per node: each Equation 2 metric followed across its samples ({@link ReadingFilter}, {@link MetricTrack}); null while
     * the node has no sample.
     */
    final MetricTrack[][] tracks;
    /** Per node: its sample with the Equation 2 metrics replaced by their filtered levels; null without a sample. */
    final AgentSample[] filtered;
    /**
     * Per node: its Equation 2 load smoothed across its samples (τ {@link #LOAD_TAU_NANOS}, weighted by
     * the time between the builds that first saw them); NaN while its sample says nothing. The first
     * sample after none counts as it is.
     */
    final double[] smoothedLoad;
    /**
     * Per node: saturated by its heap alone (heap over its threshold, queue not). Such a node's
     * {@link #activeAtSample} is the work it had when its heap first crossed the threshold, kept while
     * every later sample says the same, instead of being read again at each sample.
     *
     * <p>Why: a queue answers within a sample to the work a node is given, so re-reading a held node's
     * work at each sample lets it drain and return. Used heap does not: it holds garbage until the old
     * generation is collected, so it stays over the threshold while the node is held, and each re-read
     * found the lower work the hold itself had left, a ratchet. On GlassFish nodes (calibrated sweep,
     * combined, 320 MB) VCN3's heap read 83-95 % from the seventh second on whether it was given 3 or 8
     * connections a second; under the 2:2:1 control it served 8 a second at that reading without a
     * failure. Re-read, adaptive's hold took VCN3 down to 0-3 new connections a second, the two big nodes
     * took the rest and overflowed their queues: 276 failures (502, VCN1 184, VCN2 92), none on VCN3.
     */
    final boolean[] heapOnly;
    /** Per node: its live work in flight at this build. */
    final int[] activeAtBuild;
    final boolean[] usable;
    final long[] rampStartNanos;
    /** When this build happened, on the picker's clock: the age of {@link #perRequestMillis}. */
    final long builtNanos;
    /**
     * Per node: its mean response time of the last second divided by its requests in flight, smoothed
     * across builds (τ {@link #PER_REQUEST_TAU_NANOS}); NaN while never measured. By Little's law the
     * inverse of its throughput while it is full, which does not depend on how much work it is given;
     * measured only while all its workers are busy ({@link AdaptiveCost#FILL_FOR_ESTIMATE}): below that
     * a node's response time is its service time whatever its load, and the ratio would read a node
     * with less work as a slower one. See {@link AdaptiveCost#SLOWNESS_EXPONENT}.
     */
    final double[] perRequestMillis;
    /**
     * Per node: when {@link #perRequestMillis} was last measured, on the picker's clock; {@link #NEVER}
     * before the first. A node is measured only while full, so a factor measured once would otherwise
     * hold as long as the penalty itself keeps the node from filling ({@link AdaptiveCost#slowness}).
     */
    final long[] perRequestMeasuredNanos;
    /**
     * Per node: the exponentially weighted variance of the measurements {@link #perRequestMillis} smooths, with
     * the same weights (West's update); 0 after the first. What tells a node slower beyond chance
     * ({@link AdaptiveCost#SLOWNESS_CONFIDENCE}).
     */
    final double[] perRequestVariance;
    /** Per node: its JDBC pool waiters followed across its samples ({@link PoolWaiters}); null while its agent does not report them. */
    final MetricTrack[] waitTracks;
    /** Per node: the last build whose sample of it showed its pool waiting ({@link PoolWaiters#waiting}); {@link #NEVER} before. */
    final long[] waitSeenNanos;

    private AdaptiveMemory(int size, long builtNanos) {
        this.builtNanos = builtNanos;
        perRequestMillis = new double[size];
        perRequestVariance = new double[size];
        perRequestMeasuredNanos = new long[size];
        waitTracks = new MetricTrack[size];
        waitSeenNanos = new long[size];
        names = new String[size];
        samples = new AgentSample[size];
        sampleSeenNanos = new long[size];
        activeAtSample = new int[size];
        activeAtBuild = new int[size];
        saturated = new boolean[size];
        tracks = new MetricTrack[size][];
        filtered = new AgentSample[size];
        smoothedLoad = new double[size];
        heapOnly = new boolean[size];
        usable = new boolean[size];
        rampStartNanos = new long[size];
    }

    /** This build's memory, continuing {@code previous} (null when the previous picker was not adaptive). */
    static AdaptiveMemory of(ClusterSnapshot snapshot, AdaptiveMemory previous, long nowNanos, long slowStartNanos,
            JvmAwareLoad load) {
        AdaptiveMemory memory = new AdaptiveMemory(snapshot.size(), nowNanos);
        for (int i = 0; i < snapshot.size(); i++) {
            NodeView node = snapshot.node(i);
            memory.names[i] = node.name();
            memory.samples[i] = node.agentSample();
            memory.usable[i] = node.usable();
            int before = previous == null ? -1 : previous.indexOf(node.name(), i);
            boolean sameSample = before >= 0 && previous.samples[before] == memory.samples[i];
            memory.sampleSeenNanos[i] = sameSample ? previous.sampleSeenNanos[before] : nowNanos;
            int active = node.activeConnections();
            memory.activeAtBuild[i] = active;
            AgentSample raw = memory.samples[i];
            memory.waitTracks[i] = sameSample ? previous.waitTracks[before]
                    : PoolWaiters.next(before < 0 ? null : previous.waitTracks[before], raw);
            memory.waitSeenNanos[i] = raw != null && PoolWaiters.waiting(memory.waitTracks[i]) ? nowNanos
                    : before < 0 ? NEVER : previous.waitSeenNanos[before];
            if (sameSample) {
                memory.tracks[i] = previous.tracks[before];
                memory.filtered[i] = previous.filtered[before];
                memory.saturated[i] = previous.saturated[before];
            } else {
                memory.tracks[i] = ReadingFilter.next(before < 0 ? null : previous.tracks[before], raw);
                memory.filtered[i] = ReadingFilter.filtered(raw, memory.tracks[i]);
                memory.saturated[i] = saturatedNow(load, raw, memory.tracks[i],
                        before >= 0 && previous.saturated[before]);
            }
            AgentSample seen = memory.filtered[i];
            double sampled = memory.saturated[i] ? JvmAwareLoad.SATURATED
                    : Math.min(load.load(seen), ReadingFilter.BELOW_SATURATION);
            memory.smoothedLoad[i] = sameSample ? previous.smoothedLoad[before]
                    : smooth(sampled, before < 0 ? Double.NaN : previous.smoothedLoad[before],
                            before < 0 ? 0 : nowNanos - previous.sampleSeenNanos[before]);
            memory.heapOnly[i] = memory.saturated[i] && load.judgedHeapOver(seen, ReadingFilter.HYSTERESIS)
                    && !load.queueOver(seen, ReadingFilter.HYSTERESIS);
            if (sameSample || memory.heapOnly[i] && before >= 0 && previous.heapOnly[before]) {
                memory.activeAtSample[i] = previous.activeAtSample[before];
            } else if (gcOnly(load, memory.saturated[i], seen)) {
                memory.activeAtSample[i] = 0;
            } else if (before < 0) {
                memory.activeAtSample[i] = active;
            } else {
                memory.activeAtSample[i] = Math.min(active, previous.activeAtBuild[before]);
            }
            long ramp;
            if (previous == null || slowStartNanos == 0) {
                ramp = NOT_RAMPING;
            } else if (before < 0 || (!previous.usable[before] && memory.usable[i])) {
                ramp = nowNanos;
            } else {
                ramp = previous.rampStartNanos[before];
                if (ramp != NOT_RAMPING && nowNanos - ramp >= slowStartNanos) {
                    ramp = NOT_RAMPING;
                }
            }
            memory.rampStartNanos[i] = ramp;
            double measured = perRequestNow(node, memory.filtered[i]);
            double previousMean = before < 0 ? Double.NaN : previous.perRequestMillis[before];
            long elapsed = before < 0 ? 0 : nowNanos - previous.builtNanos;
            memory.perRequestMillis[i] = perRequest(measured, previousMean, elapsed);
            memory.perRequestVariance[i] = perRequestVariance(measured, previousMean,
                    before < 0 ? 0 : previous.perRequestVariance[before], elapsed);
            memory.perRequestMeasuredNanos[i] = !Double.isNaN(measured) ? nowNanos
                    : before < 0 ? NEVER : previous.perRequestMeasuredNanos[before];
        }
        return memory;
    }

    /**
     * Whether a node counts as saturated at a new sample: its request queue or heap over Equation 2's
     * thresholds, or its JVM collecting for more than {@code gcTimeThreshold} of the last second, or its old
     * generation fuller than {@code oldGenThreshold} after a collection. It enters saturation when a metric's filtered
     * level is over its threshold by {@link ReadingFilter#CONFIDENCE} standard errors and the raw reading
     * confirms it (both over: one noisy reading cannot exclude a node, and a level still high from the
     * past cannot either once the node reads below); it
     * stays saturated while the filtered level is within {@link ReadingFilter#HYSTERESIS} points of the
     * threshold, so a node at the edge does not flip in and out at every sample.
     *
     * <p>The heap alone is stricter both ways: it enters only when its last <em>two</em> raw readings are over
     * the threshold as well, and it leaves as soon as the filtered level is back under the threshold itself, with
     * no band. Why: a busy node's heap moves with its load from sample to sample, so the filter reads part of the
     * noise as drift, follows it, and puts the level over the threshold by its two errors on one high reading; the
     * band then held the node at the work it had for as long as the level stayed within 5 points of the
     * threshold, which a node busy near the threshold always is. In the robustness grid (docs/policies.md) the
     * simulated heap never exceeds 80 % (the threshold is 85), yet at ρ 0.95 with 10-20 % noise nodes were held
     * for 5-9 samples of a run (four nodes 1:1:½:½, readings 2 s late, grid seed 1: 150 ms mean where least
     * connections had 85), and with the heap's saturation removed altogether the five exponential-service misses
     * of the 10-seed grid met the aim. A full heap is not a matter of one second: a heap that really fills reads
     * over the threshold in consecutive samples, and seed 001's heap scenario fails no more.
     *
     * <p>The heap is read after collection where the agent reports it ({@link JvmAwareLoad#heapReading}).
     *
     * <p>The GC figures are quicker: their filtered level over the threshold after {@link
     * ReadingFilter#GC_READINGS_TO_EXCLUDE} readings, with no margin of errors, and the raw reading over it too.
     */
    static boolean saturatedNow(JvmAwareLoad load, AgentSample raw, MetricTrack[] tracks, boolean wasSaturated) {
        if (raw == null || tracks == null) {
            return false;
        }
        double queue = load.queueThreshold();
        double heap = load.heapThreshold();
        PolicyMetric heapReading = JvmAwareLoad.heapReading(raw);
        double gcTime = load.gcTimeThreshold();
        double oldGen = load.oldGenThreshold();
        if (wasSaturated) {
            double h = ReadingFilter.HYSTERESIS;
            return ReadingFilter.over(tracks, PolicyMetric.AMX_CONNS_Q_USED, queue - h, 0)
                    || ReadingFilter.over(tracks, heapReading, heap, 0) // no band for the heap: see above
                    || gcOver(tracks, PolicyMetric.GC_TIME, gcTime - h)
                    || gcOver(tracks, PolicyMetric.OLD_AFTER_GC, oldGen - h);
        }
        return confirmed(tracks, raw, PolicyMetric.AMX_CONNS_Q_USED, queue)
                || confirmed(tracks, raw, heapReading, heap) && ReadingFilter.lastTwoOver(tracks, heapReading, heap)
                || confirmed(tracks, raw, PolicyMetric.GC_TIME, gcTime) || early(tracks, PolicyMetric.GC_TIME, gcTime)
                || confirmed(tracks, raw, PolicyMetric.OLD_AFTER_GC, oldGen)
                || early(tracks, PolicyMetric.OLD_AFTER_GC, oldGen);
    }

    /**
     * A GC figure's quick entry while it has fewer readings than the other metrics need: its level over {@code
     * threshold} after {@link ReadingFilter#GC_READINGS_TO_EXCLUDE} readings and its last two raw readings over it.
     */
    private static boolean early(MetricTrack[] tracks, PolicyMetric metric, double threshold) {
        return ReadingFilter.early(tracks, metric) && gcOver(tracks, metric, threshold)
                && ReadingFilter.lastTwoOver(tracks, metric, threshold, true);
    }

    /** A GC figure's filtered level over {@code threshold} after {@link ReadingFilter#GC_READINGS_TO_EXCLUDE} readings. */
    private static boolean gcOver(MetricTrack[] tracks, PolicyMetric metric, double threshold) {
        return ReadingFilter.over(tracks, metric, threshold, 0, ReadingFilter.GC_READINGS_TO_EXCLUDE);
    }

    /** A filtered level over {@code threshold} by {@link ReadingFilter#CONFIDENCE} errors, the raw reading over it too. */
    private static boolean confirmed(MetricTrack[] tracks, AgentSample raw, PolicyMetric metric, double threshold) {
        return ReadingFilter.over(tracks, metric, threshold, ReadingFilter.CONFIDENCE) && raw.value(metric) > threshold;
    }

    /**
     * Whether a saturated node is saturated by its GC figures alone (over {@code gcTimeThreshold} or
     * {@code oldGenThreshold}, queue and heap not): such a node may hold no work while its sample is fresh
     * ({@link #activeAtSample} 0), where one saturated by its queue keeps the work it had. Why: a node that
     * collects a quarter of its time or more stops every request it holds for the length of each pause, so
     * any share of the requests it keeps puts that share in the tail (real Tomcat nodes, one collecting half
     * its time in 200-300 ms pauses, held at its sampled work: 11-21 % of the connections, p99 505-592 ms against
     * 257 ms without the pressure; benchmarks/results/2026-11-29-gc-thrash-nice-t30). When every node is at its
     * limit the least full still takes the request ({@link AdaptiveCost#lessFull}), so this avoids the node
     * while the others have room and never refuses for it. The thresholds are off unless set.
     */
    static boolean gcOnly(JvmAwareLoad load, boolean saturated, AgentSample filtered) {
        double h = ReadingFilter.HYSTERESIS;
        return saturated && load.gcOver(filtered, h) && !load.queueOver(filtered, h)
                && !load.judgedHeapOver(filtered, h);
    }

    /**
     * The node's response time per request in flight now (its mean response time of the last second over
     * its requests in flight), or NaN when it is not measured: no response in the last second, no request
     * in flight, or not all workers busy.
     */
    static double perRequestNow(NodeView node, AgentSample sample) {
        double responseMillis = node.recentResponseTimeMillis();
        int inFlight = node.inFlightRequests();
        if (!(responseMillis > 0) || inFlight <= 0 || !(AdaptiveCost.fill(sample) >= AdaptiveCost.FILL_FOR_ESTIMATE)) {
            return Double.NaN;
        }
        return responseMillis / inFlight;
    }

    /**
     * The node's smoothed response time per request in flight: the previous value moved towards this
     * build's measurement with weight {@code 1 - exp(-elapsed/τ)}; the previous value when there is no
     * measurement now (NaN).
     */
    static double perRequest(double now, double previous, long elapsedNanos) {
        if (Double.isNaN(now)) {
            return previous;
        }
        if (Double.isNaN(previous)) {
            return now;
        }
        double weight = 1 - Math.exp(-Math.max(0, elapsedNanos) / PER_REQUEST_TAU_NANOS);
        return previous + weight * (now - previous);
    }

    /**
     * The variance of the measurements behind {@link #perRequest}: {@code (1-w)(previous + w·d²)}, {@code d}
     * the new measurement's distance from the previous mean and {@code w} its weight; unchanged without a
     * measurement, 0 at the first.
     */
    static double perRequestVariance(double now, double previousMean, double previousVariance, long elapsedNanos) {
        if (Double.isNaN(now)) {
            return previousVariance;
        }
        if (Double.isNaN(previousMean)) {
            return 0;
        }
        double weight = 1 - Math.exp(-Math.max(0, elapsedNanos) / PER_REQUEST_TAU_NANOS);
        double d = now - previousMean;
        return (1 - weight) * (previousVariance + weight * d * d);
    }

    /**
     * {@code previous} moved towards {@code sampled} with weight {@code 1 - exp(-elapsed/τ)}, τ
     * {@link #LOAD_TAU_NANOS}; {@code sampled} itself when there is no previous value, NaN when the sample
     * gives no load.
     */
    static double smooth(double sampled, double previous, long elapsedNanos) {
        if (Double.isNaN(sampled) || Double.isNaN(previous)) {
            return sampled;
        }
        double weight = 1 - Math.exp(-Math.max(0, elapsedNanos) / LOAD_TAU_NANOS);
        return previous + weight * (sampled - previous);
    }

    /** The index of the node named {@code name}, looked up first at {@code hint}; -1 when absent. */
    private int indexOf(String name, int hint) {
        if (hint < names.length && names[hint].equals(name)) {
            return hint;
        }
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
