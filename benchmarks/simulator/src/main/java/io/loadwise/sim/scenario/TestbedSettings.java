package io.loadwise.sim.scenario;

import io.loadwise.scenario.Vcn3Queue;
import java.util.Locale;

/**
 * Everything that shapes a simulated sweep cell. The defaults are {@code bench sweep}'s (its {@code SweepCommand}
 * constants), except where the simulator needs a figure the sweep does not set, which says where it comes from.
 *
 * @param threads          closed-loop clients (JMeter threads), a multiple of 10: threads/10 start every ramp step
 * @param scale            the sweep's duration scale: ramp step 10 s x scale, sustain 120 s x scale, rounded as the sweep rounds
 * @param fullNode         resources of VCN1/VCN2 (VCN3's follow from the scenario)
 * @param sessionKb        state held by one trade session
 * @param sessionTimeoutS  idle timeout of a session; the node expires idle sessions once a second, as the sweep's Tomcat does
 * @param connectionTtlMs  a client reuses its connection for this long, then reconnects (a new placement)
 * @param thinkMs          pause of a client between two requests (the trade plan has none)
 * @param demandMs         mean CPU time of one request, exponential; the machine's cores serve all running requests
 *                         of all nodes by processor sharing
 * @param cores            CPUs of the machine the nodes share
 * @param baseHeapFraction share of a node's heap used before any session (the app, Tomcat and uncollected garbage)
 * @param jdbcWaitMs       longest wait for a JDBC connection (the trade data source's maxWaitMillis; the sweep's
 *                         {@code --jdbc-max-wait-ms})
 * @param failureMs        CPU time of a failed exchange (dispatcher, the node's rejection, the client's reconnect), served
 *                         on the shared cores like a request
 * @param agentPeriodMs    the dispatcher polls every agent for its full sample every period (agentPollIntervalMs),
 *                         each node on its own phase; the agents take a full sample as often
 * @param agentDelayMs     a polled sample reaches the dispatcher this long after the poll
 * @param agentExpiryMs    older samples read as missing
 * @param agentFastMs      agents sample the policy metrics every this often (the agent's sample.fast.ms; 0: only full samples)
 * @param agentHeaderMs    at most once per this interval a response carries the latest sample to the dispatcher
 *                         (endpoint-load-metrics; the agent's header.interval.ms; -1: never)
 * @param refreshMs        the dispatcher rebuilds the picker of an agent-driven policy at most this often after new
 *                         samples (NodeMonitor's RefreshCoalescer)
 * @param jdbcHoldMs       after its CPU time a request keeps its worker and JDBC connection this much longer without
 *                         using a CPU (the sweep's {@code --jdbc-hold-ms}; 0: none)
 * @param vcn3Queue        whether VCN3's request queue is halved with its worker threads ({@code --vcn3-queue half}) or
 *                         kept as seed Table 9 keeps it (seed)
 * @param agentQueueMetric whether the agents report {@code AMX_CONNS_Q_USED%}; the sweep's Tomcat does not (its
 *                         connector has no shared {@code <Executor>}, the only MBean the agent's Tomcat adapter
 *                         reads the queue from), and without it adaptive has no saturation, slot or slowness guard
 *                         ({@code --agent-queue-metric off}; 2026-11-24-adaptive-failures-sim)
 */
public record TestbedSettings(int threads, double scale, NodeResources fullNode, int sessionKb, int sessionTimeoutS,
        int connectionTtlMs, double thinkMs, double demandMs, int cores, double baseHeapFraction, long jdbcWaitMs,
        double failureMs, long agentPeriodMs, long agentDelayMs, long agentExpiryMs, long agentFastMs,
        long agentHeaderMs, long refreshMs, long jdbcHoldMs, Vcn3Queue vcn3Queue, boolean agentQueueMetric) {

    /** Thread groups of the trade plan: threads/10 start (and stop) per ramp step. */
    public static final int STEPS = 10;
    /** {@code bench sweep}'s default full node: 96 MB heap, 12 workers, queue 12, 10 JDBC connections. */
    public static final NodeResources SWEEP_FULL_NODE = new NodeResources(96, 12, 12, 10);
    public static final int SWEEP_THREADS = 60;
    public static final double SWEEP_SCALE = 0.1;
    /** The sweep's session sizing: 45 KB / scale and 100 s x scale. */
    public static final double SESSION_KB_AT_SCALE_1 = 45;
    public static final double SESSION_TIMEOUT_S_AT_SCALE_1 = 100;
    public static final int SWEEP_CONNECTION_TTL_MS = 1000;
    /**
     * Mean CPU time per request on the sweep's machine, everything included (node, database, dispatcher, JMeter):
     * with every client always at a node (no think time) the cores stay busy, so throughput = cores / demand.
     * 2 cores / 499.9 samples/s, the mean of the 45 HTTP cells of 2026-11-22-sweep (all scenarios; each cell
     * one run), gives 4.00 ms. {@code --compare} recomputes it from the folder it reads.
     */
    public static final double DEFAULT_DEMAND_MS = 4.00;
    public static final int DEFAULT_CORES = 2;
    /**
     * Peak heap of the full nodes in 2026-11-22-sweep was 60-72 % with about a third of 25 placements/s creating
     * 450 KB sessions that live 10 s (about 36 MB), leaving 28 MB of 96 (29 %); VCN3 at 48 MB under the 2:2:1 control
     * peaked at 79 % with about 22 MB of sessions, leaving 16 MB of 48 (33 %). 30 % fits both.
     */
    public static final double DEFAULT_BASE_HEAP_FRACTION = 0.30;
    /** The trade data source's maxWaitMillis (node-launcher's TradeDataSourceResource). */
    public static final long DEFAULT_JDBC_WAIT_MS = 10_000;
    /**
     * CPU time of a failed exchange when none is given: the request's demand. Not measured; it sets how fast a
     * client that keeps failing fails again, so failure counts scale roughly with its inverse (the agreement README
     * shows 1, 4 and 16 ms: the counts move, the rankings do not). At the demand, fastest-response-time fails
     * 145-1482 times per scenario against the bench's 74-289.
     */
    /** A poll of an agent on loopback: a few milliseconds. */
    public static final long DEFAULT_AGENT_DELAY_MS = 5;
    /** The node agent's defaults (AgentConfig): policy metrics every 100 ms, a header at most every 100 ms. */
    public static final long DEFAULT_AGENT_FAST_MS = 100;
    public static final long DEFAULT_AGENT_HEADER_MS = 100;
    /** NodeMonitor's REFRESH_PERIOD_MILLIS. */
    public static final long DEFAULT_REFRESH_MS = 100;

    /** The settings with the seed's queue on VCN3. */
    public TestbedSettings(int threads, double scale, NodeResources fullNode, int sessionKb, int sessionTimeoutS,
            int connectionTtlMs, double thinkMs, double demandMs, int cores, double baseHeapFraction, long jdbcWaitMs,
            double failureMs, long agentPeriodMs, long agentDelayMs, long agentExpiryMs, long agentFastMs,
            long agentHeaderMs, long refreshMs) {
        this(threads, scale, fullNode, sessionKb, sessionTimeoutS, connectionTtlMs, thinkMs, demandMs, cores,
                baseHeapFraction, jdbcWaitMs, failureMs, agentPeriodMs, agentDelayMs, agentExpiryMs, agentFastMs,
                agentHeaderMs, refreshMs, 0, Vcn3Queue.SEED);
    }

    /** The settings with agents that report the queue metric. */
    public TestbedSettings(int threads, double scale, NodeResources fullNode, int sessionKb, int sessionTimeoutS,
            int connectionTtlMs, double thinkMs, double demandMs, int cores, double baseHeapFraction, long jdbcWaitMs,
            double failureMs, long agentPeriodMs, long agentDelayMs, long agentExpiryMs, long agentFastMs,
            long agentHeaderMs, long refreshMs, long jdbcHoldMs, Vcn3Queue vcn3Queue) {
        this(threads, scale, fullNode, sessionKb, sessionTimeoutS, connectionTtlMs, thinkMs, demandMs, cores,
                baseHeapFraction, jdbcWaitMs, failureMs, agentPeriodMs, agentDelayMs, agentExpiryMs, agentFastMs,
                agentHeaderMs, refreshMs, jdbcHoldMs, vcn3Queue, true);
    }

    public TestbedSettings {
        if (jdbcHoldMs < 0) {
            throw new IllegalArgumentException("--jdbc-hold-ms must be >= 0, got " + jdbcHoldMs);
        }
        if (vcn3Queue == null) {
            throw new IllegalArgumentException("vcn3Queue must be seed or half");
        }
        if (threads < STEPS || threads % STEPS != 0) {
            throw new IllegalArgumentException("--threads must be a positive multiple of " + STEPS + ", got " + threads);
        }
        if (!(scale > 0) || scale > 10) {
            throw new IllegalArgumentException("--scale must be in (0, 10], got " + scale);
        }
        if (sessionKb < 0 || sessionTimeoutS < 1 || connectionTtlMs < 1) {
            throw new IllegalArgumentException("--session-kb must be >= 0, --session-timeout-s >= 1 and --connection-ttl-ms >= 1");
        }
        if (!(thinkMs >= 0) || !(demandMs > 0) || cores < 1 || !(failureMs > 0)) {
            throw new IllegalArgumentException("--think-ms must be >= 0, --demand-ms > 0 and --cores >= 1");
        }
        if (!(baseHeapFraction >= 0 && baseHeapFraction < 1) || jdbcWaitMs < 0) {
            throw new IllegalArgumentException("--base-heap must be in [0, 1) and --jdbc-wait-ms >= 0");
        }
        if (agentPeriodMs < 1 || agentDelayMs < 0 || agentExpiryMs < 1) {
            throw new IllegalArgumentException("--agent-period-ms and --agent-expiry-ms must be >= 1 and --agent-delay-ms >= 0");
        }
        if (agentFastMs < 0 || agentHeaderMs < -1 || refreshMs < 0) {
            throw new IllegalArgumentException("--agent-fast-ms and --refresh-ms must be >= 0 and --agent-header-ms >= -1");
        }
    }

    /** The sweep's defaults at {@code threads} clients and duration scale {@code scale}. */
    public static TestbedSettings sweepDefaults(int threads, double scale) {
        return new TestbedSettings(threads, scale, SWEEP_FULL_NODE, (int) Math.round(SESSION_KB_AT_SCALE_1 / scale),
                Math.max(1, (int) Math.round(SESSION_TIMEOUT_S_AT_SCALE_1 * scale)), SWEEP_CONNECTION_TTL_MS, 0,
                DEFAULT_DEMAND_MS, DEFAULT_CORES, DEFAULT_BASE_HEAP_FRACTION, DEFAULT_JDBC_WAIT_MS, DEFAULT_DEMAND_MS,
                1000, DEFAULT_AGENT_DELAY_MS, 3000, DEFAULT_AGENT_FAST_MS, DEFAULT_AGENT_HEADER_MS, DEFAULT_REFRESH_MS,
                0, Vcn3Queue.SEED);
    }

    /** These settings with VCN3's queue {@code queue}. */
    public TestbedSettings withVcn3Queue(Vcn3Queue queue) {
        return new TestbedSettings(threads, scale, fullNode, sessionKb, sessionTimeoutS, connectionTtlMs, thinkMs,
                demandMs, cores, baseHeapFraction, jdbcWaitMs, failureMs, agentPeriodMs, agentDelayMs, agentExpiryMs,
                agentFastMs, agentHeaderMs, refreshMs, jdbcHoldMs, queue, agentQueueMetric);
    }

    /** These settings with agents that report the queue metric, or not ({@link #agentQueueMetric}). */
    public TestbedSettings withAgentQueueMetric(boolean reported) {
        return new TestbedSettings(threads, scale, fullNode, sessionKb, sessionTimeoutS, connectionTtlMs, thinkMs,
                demandMs, cores, baseHeapFraction, jdbcWaitMs, failureMs, agentPeriodMs, agentDelayMs, agentExpiryMs,
                agentFastMs, agentHeaderMs, refreshMs, jdbcHoldMs, vcn3Queue, reported);
    }

    /** These settings with requests holding their JDBC connection {@code holdMs} and waiting at most {@code waitMs}. */
    public TestbedSettings withJdbc(long holdMs, long waitMs) {
        return new TestbedSettings(threads, scale, fullNode, sessionKb, sessionTimeoutS, connectionTtlMs, thinkMs,
                demandMs, cores, baseHeapFraction, waitMs, failureMs, agentPeriodMs, agentDelayMs, agentExpiryMs,
                agentFastMs, agentHeaderMs, refreshMs, holdMs, vcn3Queue, agentQueueMetric);
    }

    /** Seconds between two thread-group starts, rounded as the sweep rounds it. */
    public int rampStepSeconds() {
        return (int) Math.round(10 * scale);
    }

    /** Seconds with all threads running, at least 1. */
    public int sustainSeconds() {
        return Math.max(1, (int) Math.round(120 * scale));
    }

    /** From the first start to the last stop. */
    public int totalSeconds() {
        return 2 * (STEPS - 1) * rampStepSeconds() + sustainSeconds();
    }

    public String describe() {
        return String.format(Locale.ROOT, "%d threads (%d started every %d s, all for %d s, %d s in all), think %s ms;"
                        + " full node %s, VCN3's queue %s; sessions %d KB, %d s idle timeout; connection TTL %d ms; demand %.2f ms on %d"
                        + " cores (processor sharing), failed exchange %.2f ms; base heap %.0f %%; JDBC wait <= %d ms, hold %d ms; agents: full samples polled every %d ms"
                        + " (+%d ms), policy metrics every %d ms on responses at most every %d ms, picker rebuilt at most every %d ms,"
                        + " expiry %d ms%s",
                threads, threads / STEPS, rampStepSeconds(), sustainSeconds(), totalSeconds(), trim(thinkMs), fullNode,
                vcn3Queue == Vcn3Queue.HALF ? "halved with its threads" : "kept (seed)",
                sessionKb, sessionTimeoutS, connectionTtlMs, demandMs, cores, failureMs, 100 * baseHeapFraction, jdbcWaitMs, jdbcHoldMs,
                agentPeriodMs, agentDelayMs, agentFastMs, agentHeaderMs, refreshMs, agentExpiryMs,
                agentQueueMetric ? "" : "; no queue metric (AMX_CONNS_Q_USED%)");
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

}
