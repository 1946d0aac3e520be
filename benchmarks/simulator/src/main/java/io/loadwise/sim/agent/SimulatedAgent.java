package io.loadwise.sim.agent;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyMetric;
import io.loadwise.sim.engine.SimulatedNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Turns a simulated node's state into the seed-001 metrics a node agent would report. A simulated node
 * has no heap or thread pool, so the mapping is a stand-in chosen to move with load the way the real
 * metrics do:
 * <ul>
 *   <li>{@code OS_CPU_USED%}: the node's busy fraction over the last sample period × 100;</li>
 *   <li>{@code AMX_CONNS_Q_THRBSY%}, {@code AMX_JDBC_ACTC%}: requests in the node over a nominal pool of
 *       {@value #POOL_SIZE} threads / connections, capped at 100;</li>
 *   <li>{@code AMX_CONNS_Q_USED%}: requests beyond the pool over a nominal queue of {@value #QUEUE_SIZE};</li>
 *   <li>{@code AMX_JDBC_WAIT}: 0, exact: requests beyond the nominal pool wait for a thread, not a connection;</li>
 *   <li>{@code JVM_HEAP_USED%}: 30 % baseline plus 50 % × busy fraction (at most 80 %, below jvm-aware's
 *       default 85 % threshold, so that its saturation exclusion comes from the queue metric);</li>
 *   <li>{@code JVM_OLD_AFTER_GC%}: 30 %, exact: in that stand-in the baseline is the live data and the busy
 *       share the garbage between collections, which a collection removes; a real agent on HotSpot reports it,
 *       and adaptive and jvm-aware judge the heap by it where reported;</li>
 *   <li>{@code OS_MEM_USED%}: 50 % constant; {@code OS_CPU_IOWAIT%}: 0;</li>
 *   <li>{@code AMX_SESSIONS_ACT}: requests in the node;</li>
 *   <li>ORCA's three fields, for orca-wrr: {@code APP_RQST_RATE} ({@code rps_fractional}) the requests the
 *       node completed per second over the period, {@code APP_UTILIZATION%} its busy fraction × 100 (so
 *       qps / utilization is the node's service rate, as the real agent's Little's-law figure makes it), and
 *       {@code APP_RQST_ERR_RATE} ({@code eps}) 0: a simulated node does not fail.</li>
 * </ul>
 * Every value is then multiplied by {@code 1 + noise·N(0,1)} and percentages are clamped to 0..100.
 */
public final class SimulatedAgent {

    static final int POOL_SIZE = 10;
    static final int QUEUE_SIZE = 100;
    /** The heap's baseline, {@code JVM_HEAP_USED%} at no load: the live data a collection leaves. */
    static final double LIVE_HEAP_PERCENT = 30;

    private final double noise;
    private final SplittableRandom random;

    public SimulatedAgent(double noise, SplittableRandom random) {
        this.noise = noise;
        this.random = random;
    }

    /**
     * @param busyFraction the node's utilisation over the sample period just ended
     * @param requestsPerSecond requests the node completed per second over that period
     * @param takenAtMillis virtual time of the sample
     */
    public AgentSample sample(SimulatedNode node, double busyFraction, double requestsPerSecond, long takenAtMillis) {
        int inNode = node.inFlightRequests();
        Map<String, Double> m = new LinkedHashMap<>();
        put(m, PolicyMetric.OS_CPU_USED, 100 * busyFraction, true);
        put(m, PolicyMetric.OS_MEM_USED, 50, true);
        put(m, PolicyMetric.OS_CPU_IOWAIT, 0, true);
        put(m, PolicyMetric.JVM_HEAP_USED, LIVE_HEAP_PERCENT + 50 * busyFraction, true);
        put(m, PolicyMetric.AMX_CONNS_Q_THRBSY, 100.0 * Math.min(inNode, POOL_SIZE) / POOL_SIZE, true);
        put(m, PolicyMetric.AMX_JDBC_ACTC, 100.0 * Math.min(inNode, POOL_SIZE) / POOL_SIZE, true);
        put(m, PolicyMetric.AMX_CONNS_Q_USED, 100.0 * Math.max(0, inNode - POOL_SIZE) / QUEUE_SIZE, true);
        // requests beyond the pool wait for a worker, not a connection: exactly 0, and no draw from the noise's
        // random stream, so that every other reading is noised as before
        m.put(PolicyMetric.AMX_JDBC_WAIT.seedName(), 0.0);
        m.put(PolicyMetric.OLD_AFTER_GC.seedName(), LIVE_HEAP_PERCENT); // exact, no draw, for the same reason

        put(m, PolicyMetric.AMX_SESSIONS_ACT, inNode, false);
        put(m, PolicyMetric.REQUEST_RATE, requestsPerSecond, false);
        put(m, PolicyMetric.ERROR_RATE, 0, false);
        put(m, PolicyMetric.APP_UTILIZATION, 100 * busyFraction, true);
        return new AgentSample(takenAtMillis, AgentSample.Source.SIMULATED, m);
    }

    private void put(Map<String, Double> m, PolicyMetric metric, double value, boolean percent) {
        double v = noise > 0 ? value * (1 + noise * random.nextGaussian()) : value;
        v = Math.max(0, v);
        m.put(metric.seedName(), percent ? Math.min(100, v) : v);
    }
}
