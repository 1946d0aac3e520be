package io.loadwise.policy.builtin;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.PolicyMetric;

/**
 * The adaptive policy's load signal: the cost of one more request on a node (formula and constants in
 * {@link AdaptivePolicy} and docs/policies.md). Agent-derived headroom and saturation are computed once
 * per build, and so is each node's slowness (its response time per request in flight against the
 * fastest node's); in-flight work, the peak-EWMA response time, the sample's age and the slow-start ramp
 * are read at each pick. Allocation-free.
 */
final class AdaptiveCost {

    /** Headroom of a node at load 99.x: it still takes work, at a hundredth of an idle node's rate (as jvm-aware). */
    static final double MIN_HEADROOM = 0.01;
    /** A node's latency counts as at least this fraction of its rival's: see {@link #cheaper}. */
    static final double LATENCY_FLOOR = 0.25;
    /**
     * The most one node's sampled headroom may count over another's: 1.5 times. A sample is up to a
     * period and a half old when it is read; a node that looked 100 times freer than its rivals would
     * take 100 times their in-flight work before the next sample could correct it (the herd). Bounded,
     * the live in-flight count decides within this factor. Why 1.5 and not 4 (jvm-aware's,
     * {@link HeadroomLoad#SPREAD}): on real Tomcat nodes the queue metric counts socket events as well
     * as requests, so two equal nodes' 100 ms samples differ by up to 75 queue points, and with 4 the
     * two big nodes of the calibrated sweep's combined scenario swung from second to second (selections
     * 12/34 then 26/6) until one overflowed its queue: 30, 0 and 31 failures in three runs, mean
     * |VCN1 - VCN2| 10.2, 2.9 and 9.6 selections a second. With 1.5: 0, 0 and 0, 6.0-7.4 a second, and
     * 0 failures in heap and http-threads too (benchmarks/results/2026-11-24-adaptive-spread-1.5). The
     * saturation hold-out and the slot limit, not the headroom weight, keep a full node from refusing.
     */
    static final double HEADROOM_SPREAD = 1.5;
    /**
     * Fill of a node's request slots (workers and queue) from which its sample gives an estimate of how
     * many slots it has: half, all workers busy with an empty queue. Below it the node is far from full
     * and the estimate ({@code work in flight / fill}) divides by a small, noisy number.
     */
    static final double FILL_FOR_ESTIMATE = 0.5;
    /**
     * Fill from which adaptive holds a node at its estimated slots: 0.75, every worker busy and the
     * queue half full (jvm-aware keeps {@link #FILL_FOR_ESTIMATE}). Why later than the estimate can be
     * made: {@link #fill} assumes as many queue places as workers, so a node with a longer queue has
     * more slots than estimated, and a hold from half full on kept such nodes from their own queues:
     * in the robustness grid (docs/policies.md), four equal nodes with 10 workers and 100 queue places
     * at ρ 0.95, adaptive's mean response time was 78 / 52 / 74 ms (seeds 1-3) where least connections'
     * was 62 / 49 / 55; from 0.75 on, 62 / 49 / 55. Seed 001's five scenarios (12 workers, 12 queue
     * places, 10 seeds each) fail no more: 0, 0.4, 0.1, 0 and 0 requests (at 0.5: 0, 0.1, 0.1, 0, 0.5);
     * jvm-aware, whose hold is its only defence against a full node, failed 5-25 times more at 0.75.
     */
    static final double ADAPTIVE_FILL_FOR_HOLD = 0.75;
    /**
     * Slots of its estimate a node that is not saturated leaves free: the work in flight at a sample is
     * read at the builds around it, not at the instant it was taken, so the estimate is off by a request
     * or two. Simulated at 60 clients (http-threads, 10 seeds): margin 1, 42 failures; 2, 4; 3, 11.
     */
    static final double SLOT_MARGIN = 2;
    /** Weight of a node that has just joined, as a fraction of its full weight (Envoy's default 10 %). */
    static final double SLOW_START_MIN = 0.1;
    /**
     * The power of a node's per-request time ratio that multiplies its work in flight ({@link #slowness}).
     * 1 would share the work in proportion to the nodes' throughputs, which is not enough: a node's
     * response time counts its failed requests too, which end early (a JDBC wait that times out), so the
     * ratio reads a node that is failing as less slow than it is, and the ones that fail are the ones
     * that wait. Simulated (jdbc scenario, 50 clients, hold 200 ms, wait 300 ms, 3 seeds, τ 10 s):
     * exponent 1, 56.0 failures (VCN3 23.6 % of the connections); 2, 1.3 (19.7 %); without the factor
     * 81.7 (30.9 %). The pool allows VCN3 20 %.
     */
    static final double SLOWNESS_EXPONENT = 2;
    /**
     * The most a node's slowness may multiply its work in flight: 4, as jvm-aware's headroom spread, and
     * for the reason of {@link #HEADROOM_SPREAD}: a factor measured in the past moves at most 4 times a rival's in-flight work.
     */
    static final double SLOWNESS_CAP = 4;
    /**
     * τ with which a node's slowness factor fades towards 1 while it is not measured again: 60 s. A node
     * is measured only while all its workers are busy, and the factor keeps it from filling, so without
     * the fade one slow second held it back for good: with heavy-tailed service (bounded Pareto 1.5,
     * four equal nodes, ρ 0.8, seeds 1-3) one long request made its node "4 times slower" for the rest
     * of the run, 33.3 / 32.9 / 49.5 ms mean where least connections had 30.2 / 33.2 / 43.0; with the
     * fade 31.0 / 32.9 / 45.1. Why not faster: a node with half the JDBC pool (the calibrated jdbc cell,
     * TestbedSimulationTest) is full only now and then once the factor holds it back; τ 10 s let it
     * fill and fail 21 times in 3 runs, 30 s 12, 60 s under 10 (without the factor 241).
     */
    static final double SLOWNESS_FADE_TAU_NANOS = 60e9;

    /**
     * How much in-flight work one exchange that failed on a node during the last second counts for
     * ({@link NodeView#recentFailures()}): 8 requests. A node that refuses work (its workers and queue
     * full: Tomcat closes the connection, the dispatcher answers 502 at once) ends each refused exchange
     * in milliseconds, so its in-flight count stays low and, without this term, it looks the least loaded
     * node and draws every new request (the real sweep at 50 clients, http-threads: 14,892 of 15,562
     * selections on VCN3, 14,650 failures; the agent there reports no queue metric, Tomcat without a
     * shared executor, so no slot estimate holds VCN3). Counted as work, a node's failures move new
     * requests to the others, and for a second only: a node that stops failing is back at its in-flight
     * count within one window. Simulated (http-threads / combined, 50 clients, no queue metric, 3 seeds):
     * without the term 5980 / 5149 failures (VCN3 92 % / 90 % of the connections); 1, 111 / 51; 2, 61 /
     * 27; 4, 33 / 16; 8, 19 / 11; 16, 14 / 11. A refusal means the node was full, not one request too
     * many: the weight must outweigh the work the refusing node sheds by refusing. Additive, so when every
     * node fails no node is excluded; they compare by in-flight work plus weighted failures.
     */
    static final double FAILURE_WORK = 8;

    /**
     * The least share of its time a node counts as serving, however much its agent says it collects: 0.1, so
     * that the work in flight of a node in GC counts at most 10 times ({@link #running}). A node reading more
     * is all but stopped; its requests time out and its failures ({@link #FAILURE_WORK}) and outlier
     * detection take over.
     */
    static final double MIN_RUNNING = 0.1;

    private final ClusterSnapshot nodes;
    private final AdaptiveSettings settings;
    private final AdaptiveMemory memory;
    /**
     * Per node: 1 - load/100 from its load smoothed over its samples ({@link AdaptiveMemory#smoothedLoad}),
     * at least {@link #MIN_HEADROOM}; NaN when unknown.
     */
    private final double[] headroom;
    private final boolean[] saturated;
    /**
     * Per node: the work in flight it may hold while its sample is fresh, NaN for no limit. A saturated
     * node (queue or heap over its threshold): the work it had when sampled. Another node whose slots
     * are at least {@link #ADAPTIVE_FILL_FOR_HOLD} full: its estimated slots less {@link #SLOT_MARGIN}. See
     * {@link #excluded}.
     */
    private final double[] limit;
    /** Per node: the estimated slots, {@code activeAtSample / fill}; the limit, or NaN, when there is no estimate. */
    private final double[] slots;
    /** Mean headroom of the known, unsaturated nodes: what an unknown or faded node counts with; 1 if none. */
    private final double averageHeadroom;
    /** Per node: what its work in flight counts times, 1..{@link #SLOWNESS_CAP}; see {@link #slowness(int, long)}. */
    private final double[] slowness;
    /** Per node: the share of its time its JVM is not collecting, {@link #MIN_RUNNING}..1; see {@link #running(AgentSample)}. */
    private final double[] running;

    AdaptiveCost(ClusterSnapshot nodes, AdaptiveSettings settings, AdaptiveMemory memory) {
        this.nodes = nodes;
        this.settings = settings;
        this.memory = memory;
        int n = nodes.size();
        this.headroom = new double[n];
        this.saturated = new boolean[n];
        this.limit = new double[n];
        this.slots = new double[n];
        this.running = new double[n];
        double sum = 0;
        int known = 0;
        double best = MIN_HEADROOM;
        double[] shrunk = memory.smoothedLoad.clone();
        double[] variance = new double[n];
        for (int i = 0; i < n; i++) {
            variance[i] = ReadingFilter.loadVariance(memory.tracks[i]);
        }
        ReadingFilter.shrink(shrunk, variance);
        for (int i = 0; i < n; i++) {
            double load = shrunk[i];
            saturated[i] = memory.saturated[i];
            double active = memory.activeAtSample[i];
            double estimate = slotEstimate(memory.samples[i], active, ADAPTIVE_FILL_FOR_HOLD);
            limit[i] = limit(saturated[i], active, estimate);
            slots[i] = Double.isNaN(estimate) ? limit[i] : estimate;
            running[i] = running(memory.filtered[i]);
            headroom[i] = Double.isNaN(load) ? Double.NaN : saturated[i] ? MIN_HEADROOM // its raw sample decides
                    : Math.max(MIN_HEADROOM, (JvmAwareLoad.SATURATED - load) / JvmAwareLoad.SATURATED);
            if (!Double.isNaN(load) && !saturated[i]) {
                sum += headroom[i];
                known++;
                best = Math.max(best, headroom[i]);
            }
        }
        double floor = best / HEADROOM_SPREAD;
        for (int i = 0; i < n; i++) {
            headroom[i] = Math.max(floor, headroom[i]); // NaN stays NaN
        }
        this.averageHeadroom = known == 0 ? 1 : Math.max(floor, sum / known);
        this.slowness = slowness(nodes, memory.perRequestMillis, memory.perRequestVariance);
        for (int i = 0; i < n; i++) { // a factor not measured again fades: SLOWNESS_FADE_TAU_NANOS, PoolWaiters
            slowness[i] = PoolWaiters.fade(slowness[i], memory.waitTracks[i] != null,
                    age(memory.waitSeenNanos[i]), age(memory.perRequestMeasuredNanos[i]));
        }
    }

    /** Nanoseconds from {@code then} to this build; infinite for {@link AdaptiveMemory#NEVER}. */
    private double age(long then) {
        return then == AdaptiveMemory.NEVER ? Double.POSITIVE_INFINITY : memory.builtNanos - then;
    }

    /**
     * Per node, {@code min(SLOWNESS_CAP, (perRequest / fastest)^SLOWNESS_EXPONENT)}, where perRequest
     * is its smoothed response time per request in flight ({@link AdaptiveMemory#perRequestMillis})
     * and fastest the lowest of the selectable nodes'; 1 for a node never measured.
     *
     * <p>Why: a node whose bottleneck is not a worker (a JDBC pool half the size of the others', all
     * its workers holding requests that wait for a connection) shows no more agent load than the others
     * (every pool is 100 % active, its queue is emptier), yet serves each request in flight twice as
     * slowly, and its waiters time out. Response time per request in flight is the one signal that
     * tells it (Little's law: the inverse of its throughput when full), whatever the resource.
     */
    static double[] slowness(ClusterSnapshot nodes, double[] perRequestMillis) {
        return slowness(nodes, perRequestMillis, new double[nodes.size()]);
    }

    /**
     * Standard errors of the smoothed means by which a node's time per request must exceed the fastest node's
     * before it counts as slower: 2. With equal nodes, a per-request time that differs is chance (one long
     * request, a burst), and a factor made of it moves work for nothing; that was most of the cells where
     * adaptive missed the robustness grid's aim. Measured (`simulate --grid full`, 360 cells, 3 seeds): the
     * aim met in 230 cells without the term, 255 with it; the calibrated jdbc cell (seed 001, half the JDBC
     * pool on one node, TestbedSimulationTest, at most 10 failures in 3 runs) keeps passing. Tried and
     * refused: a prior variance for a node's first measurement (50 % or 100 % of it) and at least 3 or 5
     * measurements before a factor: 248-300 cells, but the jdbc cell then failed 20-199 times, because there
     * the first measurement is the only early sign of a bottleneck the agent does not report.
     */
    static final double SLOWNESS_CONFIDENCE = 2;

    /**
     * Like {@link #slowness(ClusterSnapshot, double[])}, with each node's time lowered, and the fastest's raised,
     * by {@link #SLOWNESS_CONFIDENCE} standard errors of their smoothed means (EW variance of the measurements
     * times {@code w/(2-w)}, {@code w} the weight of one measurement a second): a difference that chance explains
     * makes no factor.
     */
    static double[] slowness(ClusterSnapshot nodes, double[] perRequestMillis, double[] variance) {
        int n = nodes.size();
        double weight = 1 - Math.exp(-1e9 / AdaptiveMemory.PER_REQUEST_TAU_NANOS);
        double shrink = weight / (2 - weight);
        double fastest = Double.NaN;
        int fastestIndex = -1;
        for (int i = 0; i < n; i++) {
            double own = perRequestMillis[i];
            if (nodes.node(i).selectable() && own > 0 && !(own >= fastest)) {
                fastest = own;
                fastestIndex = i;
            }
        }
        double[] slowness = new double[n];
        if (fastestIndex < 0) {
            java.util.Arrays.fill(slowness, 1);
            return slowness;
        }
        double fastestHigh = fastest + SLOWNESS_CONFIDENCE * Math.sqrt(variance[fastestIndex] * shrink);
        for (int i = 0; i < n; i++) {
            double own = perRequestMillis[i];
            double ownLow = own - SLOWNESS_CONFIDENCE * Math.sqrt(variance[i] * shrink);
            slowness[i] = ownLow > fastestHigh
                    ? Math.min(SLOWNESS_CAP, Math.pow(ownLow / fastestHigh, SLOWNESS_EXPONENT)) : 1; // NaN: 1
        }
        return slowness;
    }

    /**
     * The fill of a node's request slots at its sample: the mean of its busy workers and its queue use,
     * 0..1 ({@code (workers busy % + queue used %) / 200}), exact for a server with as many queue places
     * as workers (the sweep's nodes) and an underestimate of the slots when the queue is longer. NaN
     * when the sample lacks either metric (then the node gets no slot estimate).
     */
    static double fill(AgentSample sample) {
        if (sample == null) {
            return Double.NaN;
        }
        double busy = sample.value(PolicyMetric.AMX_CONNS_Q_THRBSY);
        double queue = sample.value(PolicyMetric.AMX_CONNS_Q_USED);
        return (busy + queue) / 200;
    }

    /**
     * The node's slots estimated from its sample, {@code active / fill}, where {@code active} is the work
     * the dispatcher had on it at the sample; NaN when the fill is under {@link #FILL_FOR_ESTIMATE} or the
     * dispatcher had no work there (then the fill is someone else's, and says nothing of our share).
     */
    static double slotEstimate(AgentSample sample, double active) {
        return slotEstimate(sample, active, FILL_FOR_ESTIMATE);
    }

    /** {@link #slotEstimate(AgentSample, double)} from a fill of {@code minimumFill} on. */
    static double slotEstimate(AgentSample sample, double active, double minimumFill) {
        double fill = fill(sample);
        return fill >= minimumFill && active > 0 ? active / fill : Double.NaN;
    }

    /**
     * The work a node may hold: a saturated one what it had at the sample; another its estimated slots
     * less {@link #SLOT_MARGIN}, but at least what it had at the sample (it was found under its
     * thresholds at that level); NaN (no limit) without an estimate.
     */
    static double limit(boolean saturated, double active, double estimate) {
        return saturated ? active : Math.max(active, estimate - SLOT_MARGIN);
    }

    /**
     * Whether the node is at its limit while its sample is fresh: its live work in flight is at least
     * the work it may hold ({@link #limit}).
     *
     * <p>A saturated node (queue or heap over its threshold, the seed's JPR-02 exclusion) may hold the
     * work it had when sampled (when its heap crossed the threshold, if the heap alone is over it:
     * {@link AdaptiveMemory#heapOnly}): while it still has that much, one more request would find it as full,
     * so it gets none; once some of it has finished it takes work again up to that level, and no further
     * until a fresh sample says it has room. Excluding it for the sample's whole life instead drove every
     * new request onto the nodes that looked unsaturated, which then refused (simulated at 60 clients:
     * 3058-4235 failures per scenario, docs/policies.md).
     *
     * <p>Any other node whose workers are all busy may hold its estimated slots, {@code work in flight at
     * the sample / fill}, less {@link #SLOT_MARGIN}: a node that merely looked unsaturated at its last sample cannot then take every
     * new request until the next one says it is full (in the simulated http-threads scenario at 60
     * clients the one node that looked unsaturated refused thousands of requests in that period).
     *
     * <p>When every node that could take the request is at its limit, {@link AdaptivePicker} takes the
     * one with the lowest fill instead of none ({@link #lessFull}).
     */
    boolean excluded(int i, long now) {
        return !Double.isNaN(limit[i]) && now - memory.sampleSeenNanos[i] < settings.fadeEndNanos()
                && nodes.node(i).activeConnections() >= limit[i];
    }

    /**
     * Whether node {@code a}, at its limit, is no fuller than {@code b}: compares {@code (active + 1) /
     * slots}. The thresholds cannot tell nodes apart that all exceed them, but their estimated slots
     * can (a node with half the workers fills at about half the work), so such nodes share the work in
     * proportion to their slots rather than equally, and never "no node".
     */
    boolean lessFull(int a, int b) {
        double left = (nodes.node(a).activeConnections() + 1.0) * (slots[b] + 1.0);
        double right = (nodes.node(b).activeConnections() + 1.0) * (slots[a] + 1.0);
        return left <= right;
    }

    /**
     * Whether node {@code a} costs no more than node {@code b}. First by work in flight per capacity,
     * {@code (active + 1 + failures) × slowness / (headroom × ramp × weight)} ({@link #work}), compared by cross-multiplication; on
     * a tie by latency.
     *
     * <p>Why latency only breaks ties: it was a factor of the cost, {@code (active + 1) × latency}, and
     * at 60 clients on three nodes of 24 slots (20 requests each on average) that failed 2086-3010
     * requests per scenario in the simulator (docs/policies.md), where the cost without it failed none
     * in three of the five scenarios. Response time already grows with the work in flight (Little's
     * law), so the product counts in-flight work twice, and the peak-EWMA jumps on one slow response,
     * which moved several requests at once onto the other nodes, beyond their slots. The live in-flight
     * count is exact; the latency is an average of the past. Latency still decides between nodes with
     * equal work per capacity (the common case at low load, where it tells a slow node from a fast one),
     * at least {@link #LATENCY_FLOOR} of the rival's: a node whose average decayed towards 0 or that has
     * not answered yet does not win every such tie by far.
     */
    boolean cheaper(int a, int b, long now) {
        NodeView na = nodes.node(a);
        NodeView nb = nodes.node(b);
        double left = work(na) * slowness(a, now) * capacity(b, nb, now);
        double right = work(nb) * slowness(b, now) * capacity(a, na, now);
        if (left != right) {
            return left < right;
        }
        double ea = na.peakEwmaResponseMillis();
        double eb = nb.peakEwmaResponseMillis();
        double la = Math.max(ea, eb * LATENCY_FLOOR);
        double lb = Math.max(eb, ea * LATENCY_FLOOR);
        return !(la > lb); // a NaN or an equal latency keeps the first node
    }

    /**
     * The node's work with one more request: {@code active + 1 + recentFailures × FAILURE_WORK}
     * ({@link #FAILURE_WORK}).
     */
    static double work(NodeView node) {
        return node.activeConnections() + 1.0 + FAILURE_WORK * node.recentFailures();
    }

    /**
     * The node's slowness from this build while the build is younger than {@code agentFadeStartMs}, then
     * moving linearly to 1 at {@code agentFadeEndMs}: builds follow new agent samples, and a factor that
     * no build refreshes fades as the headroom does (the policy is then least requests).
     */
    double slowness(int i, long now) {
        double own = slowness[i];
        if (own == 1) {
            return 1;
        }
        return faded(own, 1, now - memory.builtNanos);
    }

    /** Headroom × share of time not collecting × slow-start ramp × configured weight. */
    private double capacity(int i, NodeView node, long now) {
        return headroom(i, now) * running(i, now) * ramp(i, now) * Math.max(1, node.weight());
    }

    /**
     * The share of its time a node's JVM is not collecting garbage, {@code 1 - JVM_GC_TIME% / 100} from the
     * filtered level of that reading ({@link ReadingFilter}), at least {@link #MIN_RUNNING}; 1 when the agent
     * does not report it.
     *
     * <p>Why a multiplier and not an exclusion: a JVM that spends a share g of its time in stop-the-world
     * collections serves at most 1 - g of what it could, so its work in flight counts 1 / (1 - g) times, as a
     * slower node's does. Healthy nodes read a few per cent and lose as much, which changes nothing between
     * them; a thrashing node gets its share cut at once, before its workers fill and the slowness factor can
     * be measured, and the others are never asked for more than the cut. An exclusion on a threshold (the
     * opt-in {@code gcTimeThreshold}) sent a thrashing node's whole share to two nodes that could not carry it
     * (benchmarks/results/2026-11-28-gc-aware-pressure: 2-46 % refused).
     */
    static double running(AgentSample filtered) {
        double collecting = filtered == null ? Double.NaN : filtered.value(PolicyMetric.GC_TIME);
        if (!(collecting > 0)) {
            return 1; // NaN: not reported
        }
        return Math.max(MIN_RUNNING, 1 - Math.min(100, collecting) / 100);
    }

    /**
     * The node's running share while its sample is younger than {@code agentFadeStartMs}, then moving linearly to
     * 1 at {@code agentFadeEndMs}, as {@link #headroom(int, long)} fades: a reading no sample refreshes says
     * nothing of now.
     */
    double running(int i, long now) {
        double own = running[i];
        if (own == 1) {
            return 1;
        }
        return faded(own, 1, now - memory.sampleSeenNanos[i]);
    }

    /**
     * The sampled headroom while the sample is younger than {@code agentFadeStartMs}; then it moves
     * linearly to the cluster's average, reached at {@code agentFadeEndMs}. With every sample faded, all
     * nodes count the same headroom and the cost is least requests weighted by latency.
     */
    double headroom(int i, long now) {
        double own = headroom[i];
        if (Double.isNaN(own)) {
            return averageHeadroom;
        }
        return faded(own, averageHeadroom, now - memory.sampleSeenNanos[i]);
    }

    /**
     * {@code own} while {@code ageNanos} is at most {@code agentFadeStartMs}, {@code target} from
     * {@code agentFadeEndMs} on, and linearly between them.
     */
    private double faded(double own, double target, long ageNanos) {
        if (ageNanos <= settings.fadeStartNanos()) {
            return own;
        }
        if (ageNanos >= settings.fadeEndNanos()) {
            return target;
        }
        double trust = (double) (settings.fadeEndNanos() - ageNanos) / (settings.fadeEndNanos() - settings.fadeStartNanos());
        return target + trust * (own - target);
    }

    /** Slow start: from {@link #SLOW_START_MIN} up to 1, linearly over {@code slowStartMs}. */
    double ramp(int i, long now) {
        long start = memory.rampStartNanos[i];
        if (start == AdaptiveMemory.NOT_RAMPING) {
            return 1;
        }
        long elapsed = now - start;
        if (elapsed >= settings.slowStartNanos()) {
            return 1;
        }
        return Math.max(SLOW_START_MIN, (double) Math.max(0, elapsed) / settings.slowStartNanos());
    }
}
