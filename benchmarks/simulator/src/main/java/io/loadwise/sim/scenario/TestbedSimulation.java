package io.loadwise.sim.scenario;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyMetric;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.scenario.CapacityScenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * Discrete-event model of one {@code bench sweep} cell: the trade plan's closed-loop JMeter threads, each on a
 * keep-alive connection that the real policy places (through the SPI, as the dispatcher in per-connection mode)
 * and re-places after the connection TTL; three nodes with workers, a request queue, a JDBC pool and a heap filled
 * by sessions; node agents fed to the dispatcher as the dispatcher and the agent do it by default: each agent
 * samples the policy metrics every {@code agentFastMs} on its own phase and puts the latest sample on a response at
 * most every {@code agentHeaderMs} (endpoint-load-metrics), the dispatcher polls each agent for a full sample every
 * {@code agentPeriodMs} on its own phase, and rebuilds the picker of a policy that reads agent metrics at most every
 * {@code refreshMs} after new samples arrived (NodeMonitor's RefreshCoalescer).
 *
 * <p>Time: the nodes share the machine's cores, so every running request (one holding a worker and a JDBC
 * connection) is served by egalitarian processor sharing over all nodes: with n running, each progresses at
 * min(1, cores / n). The next completion is computed from the attained-service clock, so there is no time step.
 *
 * <p>A client's request on a node: a free worker takes it, else it queues, else the node refuses it (a failure;
 * Tomcat closes the connection, so the client reconnects). On a worker it finds its session by cookie or, when the
 * cookie names another node's session or none, logs in: a new session of {@code sessionKb}, which fails the request
 * as an OutOfMemoryError would when it does not fit in the heap. Then it takes a JDBC connection or waits for one at
 * most {@code jdbcWaitMs}, else fails. It holds the worker and the JDBC connection while it runs, and then, when
 * {@code jdbcHoldMs} is set, for that long more without using a CPU (a conversation that reads, waits on a remote
 * call, then writes: {@code bench sweep --jdbc-hold-ms}). 4 % of requests
 * log out and 2 % register (a new session), the trade mix's shares.
 */
public final class TestbedSimulation {

    /** DayTrader's standard mix: logout 4 %, register 2 % (ScenarioMix.STANDARD). */
    static final double LOGOUT_SHARE = 0.04;
    static final double REGISTER_SHARE = 0.02;

    private static final int EV_START = 0;
    private static final int EV_STOP = 1;
    private static final int EV_NEXT_REQUEST = 2;
    private static final int EV_JDBC_TIMEOUT = 3;
    private static final int EV_EXPIRE_SESSIONS = 4;
    private static final int EV_AGENT_SAMPLE = 5;
    private static final int EV_AGENT_DELIVER = 6;
    private static final int EV_AGENT_POLL = 7;
    private static final int EV_REFRESH = 8;
    private static final int EV_HOLD_DONE = 9;

    private record Event(long time, long seq, int type, int arg, long token, AgentSample[] samples)
            implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    /** A request being served, or the failure path of one (which needs the machine's cores too) when {@code failure}. */
    private record Running(double finishService, long seq, int thread, boolean failure) implements Comparable<Running> {
        @Override
        public int compareTo(Running o) {
            int c = Double.compare(finishService, o.finishService);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private final TestbedSettings settings;
    private final CapacityScenario scenario;
    private final SweepRow row;
    private final long seed;
    private final LoadBalancingPolicy policy;

    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private final PriorityQueue<Running> running = new PriorityQueue<>();
    private long seq;
    private long now;
    /** When the last thread stops: periodic events end there. */
    private long end;
    /** Attained service per running request since the start (ns of CPU), the processor-sharing clock. */
    private double attained;
    private double busyCoreNanos;

    private List<TestbedNode> nodes;
    private ClusterSnapshot snapshot;
    private PolicyEnvironment env;
    private Picker picker;
    private SplittableRandom demands;
    private SplittableRandom actions;

    // per client thread; a thread has at most one request outstanding, so its index is the request's id
    private int[] conn;
    private long[] connOpened;
    private int[] cookieNode;
    private long[] cookieSession;
    private long[] sent;
    private long[] stopAt;
    private boolean[] stopped;
    private boolean[] logoutAfter;
    private long[] jdbcToken;
    private long[] jdbcWaitStart;
    private long longestJdbcWait;
    private long nextSessionId = 1;

    // outcome
    private long samples;
    private long failed;
    private long refused;
    private long outOfMemory;
    private long jdbcTimeouts;
    private long noNode;
    private double latencySumMs;
    private long firstSent = Long.MAX_VALUE;
    private long lastAnswer;
    private long[] selections;
    private long[] failuresByNode;
    private double[] peakHeap;
    private double[] peakThreads;
    private double[] peakJdbc;
    // agents, per node: the agent's latest sample, when it took it and the machine's busy time then, the last header
    private AgentSample[] agentLatest;
    private long[] agentSampledAt;
    private double[] agentBusyAt;
    private long[] lastHeaderAt;
    private boolean refreshPending;
    private long lastRefresh = Long.MIN_VALUE / 2;

    /** Observer for tests: called after every event with the simulation's state. */
    interface Probe {
        void after(TestbedSimulation sim);
    }

    private Probe probe;

    public TestbedSimulation(TestbedSettings settings, CapacityScenario scenario, SweepRow row, LoadBalancingPolicy policy,
            long seed) {
        this.settings = settings;
        this.scenario = scenario;
        this.row = row;
        this.policy = policy;
        this.seed = seed;
    }

    TestbedSimulation probe(Probe p) {
        this.probe = p;
        return this;
    }

    public CellOutcome run() {
        SplittableRandom root = new SplittableRandom(seed);
        demands = root.split();
        actions = root.split();
        SplittableRandom policyRandom = root.split();
        SplittableRandom phases = root.split();
        List<NodeResources> resources = settings.fullNode().nodesIn(scenario, settings.vcn3Queue());
        nodes = new ArrayList<>();
        for (int i = 0; i < resources.size(); i++) {
            nodes.add(new TestbedNode(i, row.weights().get(i), resources.get(i), () -> now, settings.agentExpiryMs(),
                    settings.baseHeapFraction(), settings.sessionKb()));
        }
        snapshot = new ClusterSnapshot("bench", nodes);
        env = new PolicyEnvironment(policyRandom, () -> now, PolicyOptions.EMPTY);
        List<String> errors = policy.validate(PolicyOptions.EMPTY);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException("policy " + policy.id() + ": " + String.join("; ", errors));
        }
        picker = policy.newPicker(snapshot, null, env);

        int n = settings.threads();
        conn = new int[n];
        connOpened = new long[n];
        cookieNode = new int[n];
        cookieSession = new long[n];
        sent = new long[n];
        stopAt = new long[n];
        stopped = new boolean[n];
        logoutAfter = new boolean[n];
        jdbcToken = new long[n];
        jdbcWaitStart = new long[n];
        java.util.Arrays.fill(conn, -1);
        java.util.Arrays.fill(cookieNode, -1);
        selections = new long[nodes.size()];
        failuresByNode = new long[nodes.size()];
        peakHeap = new double[nodes.size()];
        peakThreads = new double[nodes.size()];
        peakJdbc = new double[nodes.size()];

        long step = settings.rampStepSeconds() * 1_000_000_000L;
        long sustain = settings.sustainSeconds() * 1_000_000_000L;
        int perGroup = n / TestbedSettings.STEPS;
        for (int t = 0; t < n; t++) {
            int group = t / perGroup;
            long start = group * step;
            stopAt[t] = start + (TestbedSettings.STEPS - 1) * step + sustain;
            schedule(start, EV_START, t, 0, null);
        }
        end = settings.totalSeconds() * 1_000_000_000L;
        // periodic events schedule their next occurrence, so the queue holds at most one of each
        schedule(1_000_000_000L, EV_EXPIRE_SESSIONS, 0, 0, null);
        agentLatest = new AgentSample[nodes.size()];
        agentSampledAt = new long[nodes.size()];
        agentBusyAt = new double[nodes.size()];
        lastHeaderAt = new long[nodes.size()];
        java.util.Arrays.fill(lastHeaderAt, Long.MIN_VALUE / 2);
        if (row.http()) { // TCP rows poll no agent
            long poll = settings.agentPeriodMs() * 1_000_000L;
            long fast = settings.agentFastMs() * 1_000_000L;
            for (int i = 0; i < nodes.size(); i++) {
                // every agent and every poll chain runs on its own phase, as separate processes and timers do
                schedule(phases.nextLong(poll), EV_AGENT_POLL, i, 0, null);
                if (fast > 0) {
                    schedule(phases.nextLong(fast), EV_AGENT_SAMPLE, i, 0, null);
                }
            }
        }
        loop();
        return outcome();
    }

    private void loop() {
        while (true) {
            Event next = events.peek();
            long completionAt = Long.MAX_VALUE;
            Running first = running.peek();
            if (first != null) {
                double rate = rate();
                completionAt = now + (long) Math.ceil(Math.max(0, first.finishService() - attained) / rate);
            }
            if (next == null && first == null) {
                return;
            }
            if (first != null && (next == null || completionAt <= next.time())) {
                advance(completionAt);
                running.poll();
                attained = Math.max(attained, first.finishService());
                if (first.failure()) {
                    answered(first.thread());
                    next(first.thread(), settings.thinkMs());
                } else if (settings.jdbcHoldMs() > 0) {
                    // served; it keeps its worker and JDBC connection, off the CPU, for the hold
                    schedule(now + settings.jdbcHoldMs() * 1_000_000L, EV_HOLD_DONE, first.thread(), 0, null);
                } else {
                    complete(first.thread());
                }
            } else {
                events.poll();
                advance(next.time());
                handle(next);
            }
            if (probe != null) {
                probe.after(this);
            }
        }
    }

    private double rate() {
        int r = running.size();
        return r <= settings.cores() ? 1.0 : (double) settings.cores() / r;
    }

    private void advance(long to) {
        if (to > now) {
            long dt = to - now;
            attained += rate() * dt;
            busyCoreNanos += Math.min(running.size(), settings.cores()) * (double) dt;
            now = to;
        }
    }

    private void schedule(long time, int type, int arg, long token, AgentSample[] samples) {
        events.add(new Event(time, seq++, type, arg, token, samples));
    }

    private void handle(Event e) {
        switch (e.type()) {
            case EV_START, EV_NEXT_REQUEST -> startRequest(e.arg());
            case EV_JDBC_TIMEOUT -> jdbcTimeout(e.arg(), e.token());
            case EV_HOLD_DONE -> complete(e.arg());
            case EV_EXPIRE_SESSIONS -> {
                long timeout = settings.sessionTimeoutS() * 1_000_000_000L;
                for (TestbedNode node : nodes) {
                    node.expireSessions(now, timeout);
                }
                again(e, 1_000_000_000L);
            }
            case EV_AGENT_SAMPLE -> {
                agentLatest[e.arg()] = sample(e.arg());
                again(e, settings.agentFastMs() * 1_000_000L);
            }
            case EV_AGENT_POLL -> {
                again(e, settings.agentPeriodMs() * 1_000_000L);
                // a full sample, taken when the poll asks, answered after the poll's delay
                AgentSample full = sample(e.arg());
                agentLatest[e.arg()] = full;
                recordPeaks(e.arg(), full);
                schedule(now + settings.agentDelayMs() * 1_000_000L, EV_AGENT_DELIVER, e.arg(), 0, new AgentSample[] {full});
            }
            case EV_AGENT_DELIVER -> {
                nodes.get(e.arg()).deliver(e.samples()[0]);
                markDirty();
            }
            case EV_REFRESH -> {
                refreshPending = false;
                lastRefresh = now;
                picker = policy.newPicker(snapshot, picker, env);
            }
            default -> throw new IllegalStateException("event type " + e.type());
        }
    }

    /** Schedules the next occurrence of a periodic event, up to the end of the run. */
    private void again(Event e, long period) {
        if (e.time() + period <= end) {
            schedule(e.time() + period, e.type(), e.arg(), 0, null);
        }
    }

    private void startRequest(int t) {
        if (now >= stopAt[t]) {
            stopped[t] = true;
            closeConnection(t);
            return;
        }
        sent[t] = now;
        firstSent = Math.min(firstSent, now);
        if (conn[t] < 0 || now - connOpened[t] >= settings.connectionTtlMs() * 1_000_000L) {
            closeConnection(t);
            NodeView chosen = picker.pick(null);
            if (chosen == null) {
                noNode++;
                fail(t, -1, false);
                return;
            }
            conn[t] = chosen.index();
            connOpened[t] = now;
            nodes.get(conn[t]).live().assignmentStarted();
            selections[conn[t]]++;
        }
        TestbedNode node = nodes.get(conn[t]);
        if (row.http()) {
            node.live().requestSent();
        }
        switch (node.admit(t)) {
            case WORKER -> onWorker(t);
            case QUEUED -> { }
            case REFUSED -> {
                refused++;
                int at = conn[t];
                if (row.http()) {
                    node.live().requestFailed(now); // the dispatcher's 502: no response from the node
                }
                endRequest(t, node, -1);
                closeConnection(t); // Tomcat closes a rejected request's connection
                fail(t, at, false);
            }
        }
    }

    /** Thread t's request has a worker on its node: session, then JDBC, then it runs. */
    private void onWorker(int t) {
        TestbedNode node = nodes.get(conn[t]);
        boolean known = cookieNode[t] == node.index() && node.sessions.containsKey(cookieSession[t]);
        boolean newSession = !known;
        if (known) {
            double u = actions.nextDouble();
            if (u < LOGOUT_SHARE) {
                logoutAfter[t] = true;
            } else if (u < LOGOUT_SHARE + REGISTER_SHARE) {
                node.sessions.remove(cookieSession[t]);
                newSession = true;
            }
        }
        if (newSession) {
            if (!node.sessionFits()) {
                outOfMemory++;
                cookieNode[t] = -1;
                failOnWorker(t, node, false);
                return;
            }
            long id = nextSessionId++;
            node.sessions.put(id, now);
            cookieNode[t] = node.index();
            cookieSession[t] = id;
        } else {
            node.sessions.put(cookieSession[t], now);
        }
        if (node.tryAcquireJdbc()) {
            startRunning(t);
        } else {
            node.jdbcWaiters.addLast(t);
            jdbcWaitStart[t] = now;
            schedule(now + settings.jdbcWaitMs() * 1_000_000L, EV_JDBC_TIMEOUT, t, ++jdbcToken[t], null);
        }
    }

    private void startRunning(int t) {
        double demandNanos = -Math.log(1 - demands.nextDouble()) * settings.demandMs() * 1e6;
        running.add(new Running(attained + demandNanos, seq++, t, false));
    }

    private void complete(int t) {
        TestbedNode node = nodes.get(conn[t]);
        int waiter = node.releaseJdbc();
        if (waiter >= 0) {
            jdbcToken[waiter]++; // its time-out no longer applies
            longestJdbcWait = Math.max(longestJdbcWait, now - jdbcWaitStart[waiter]);
            startRunning(waiter);
        }
        if (cookieNode[t] == node.index() && node.sessions.containsKey(cookieSession[t])) {
            if (logoutAfter[t]) {
                node.sessions.remove(cookieSession[t]);
                cookieNode[t] = -1;
            } else {
                node.sessions.put(cookieSession[t], now); // Tomcat's last access is the end of the request
            }
        }
        logoutAfter[t] = false;
        piggyback(node);
        releaseWorker(node);
        samples++;
        answered(t);
        endRequest(t, node, now - sent[t]);
        next(t, settings.thinkMs());
    }

    private void answered(int t) {
        latencySumMs += (now - sent[t]) / 1e6;
        lastAnswer = Math.max(lastAnswer, now);
    }

    private void jdbcTimeout(int t, long token) {
        if (token != jdbcToken[t]) {
            return;
        }
        TestbedNode node = nodes.get(conn[t]);
        node.jdbcWaiters.remove(t);
        longestJdbcWait = Math.max(longestJdbcWait, now - jdbcWaitStart[t]);
        jdbcTimeouts++;
        failOnWorker(t, node, true);
    }

    /** A request failed while holding a worker (out of heap, no JDBC connection): an error response. */
    private void failOnWorker(int t, TestbedNode node, boolean afterWait) {
        piggyback(node); // an error page is a response too
        releaseWorker(node);
        endRequest(t, node, now - sent[t]);
        fail(t, node.index(), afterWait);
    }

    private void releaseWorker(TestbedNode node) {
        int queued = node.releaseWorker();
        if (queued >= 0) {
            onWorker(queued);
        }
    }

    private void endRequest(int t, TestbedNode node, long responseNanos) {
        if (row.http()) {
            node.live().requestEnded(now, responseNanos);
        }
    }

    /**
     * Counts a failed sample. After a long wait the error answer is at hand; otherwise the failure path (the
     * dispatcher, the node's rejection, the client's reconnect) still needs {@code failureMs} of the shared cores,
     * so a client that keeps failing slows down as the machine fills, as a real one does.
     */
    private void fail(int t, int node, boolean afterWait) {
        failed++;
        samples++;
        if (node >= 0) {
            failuresByNode[node]++;
        }
        if (afterWait) {
            answered(t);
            next(t, settings.thinkMs());
        } else {
            running.add(new Running(attained + settings.failureMs() * 1e6, seq++, t, true));
        }
    }

    private void next(int t, double afterMs) {
        schedule(now + (long) (afterMs * 1e6), EV_NEXT_REQUEST, t, 0, null);
    }

    private void closeConnection(int t) {
        if (conn[t] >= 0) {
            nodes.get(conn[t]).live().assignmentEnded();
            conn[t] = -1;
        }
    }

    /** The response now leaving {@code node} carries the agent's latest sample if the header interval has passed. */
    private void piggyback(TestbedNode node) {
        int i = node.index();
        if (!row.http() || settings.agentHeaderMs() < 0 || agentLatest[i] == null
                || now - lastHeaderAt[i] < settings.agentHeaderMs() * 1_000_000L) {
            return;
        }
        lastHeaderAt[i] = now;
        node.deliver(new AgentSample(now / 1_000_000L, AgentSample.Source.PIGGYBACK, agentLatest[i].metrics()));
        markDirty();
    }

    /** New samples: the picker of an agent-driven policy is rebuilt, at most once per refresh period. */
    private void markDirty() {
        if (refreshPending || !policy.inputs().contains(PolicyInput.AGENT_METRICS)) {
            return;
        }
        refreshPending = true;
        schedule(Math.max(now, lastRefresh + settings.refreshMs() * 1_000_000L), EV_REFRESH, 0, 0, null);
    }

    /** What node {@code i}'s agent measures now; CPU is the machine's busy share since this agent's last sample. */
    private AgentSample sample(int i) {
        long window = now - agentSampledAt[i];
        double busy = window <= 0 ? 0 : (busyCoreNanos - agentBusyAt[i]) / (settings.cores() * (double) window);
        agentSampledAt[i] = now;
        agentBusyAt[i] = busyCoreNanos;
        TestbedNode node = nodes.get(i);
        NodeResources r = node.resources();
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(PolicyMetric.OS_CPU_USED.seedName(), Math.min(100, 100 * busy)); // one machine: every agent sees its CPU
        m.put(PolicyMetric.OS_MEM_USED.seedName(), 50.0);
        m.put(PolicyMetric.OS_CPU_IOWAIT.seedName(), 0.0);
        m.put(PolicyMetric.JVM_HEAP_USED.seedName(), Math.min(100, 100.0 * node.heapUsedBytes() / node.heapMaxBytes()));
        m.put(PolicyMetric.AMX_CONNS_Q_THRBSY.seedName(), 100.0 * node.busyWorkers() / r.workers());
        if (settings.agentQueueMetric()) { // the sweep's Tomcat reports none: no shared executor
            m.put(PolicyMetric.AMX_CONNS_Q_USED.seedName(), r.queue() == 0 ? 0 : 100.0 * node.queue.size() / r.queue());
        }
        m.put(PolicyMetric.AMX_JDBC_ACTC.seedName(), 100.0 * node.jdbcInUse() / r.jdbcPool());
        m.put(PolicyMetric.AMX_JDBC_WAIT.seedName(), (double) node.jdbcWaiters.size()); // its pool's waiting requests
        m.put(PolicyMetric.AMX_SESSIONS_ACT.seedName(), (double) node.sessions.size());
        return new AgentSample(now / 1_000_000L, AgentSample.Source.SIMULATED, m);
    }

    /** The sweep reports the highest values the dispatcher saw once a second; the polls are that. */
    private void recordPeaks(int i, AgentSample s) {
        peakHeap[i] = Math.max(peakHeap[i], s.value(PolicyMetric.JVM_HEAP_USED));
        peakThreads[i] = Math.max(peakThreads[i], s.value(PolicyMetric.AMX_CONNS_Q_THRBSY));
        peakJdbc[i] = Math.max(peakJdbc[i], s.value(PolicyMetric.AMX_JDBC_ACTC));
    }

    private CellOutcome outcome() {
        double seconds = lastAnswer > firstSent ? (lastAnswer - firstSent) / 1e9 : 0;
        return new CellOutcome(scenario, row, seed, samples, failed, refused, outOfMemory, jdbcTimeouts, noNode,
                seconds == 0 ? 0 : samples / seconds, samples == 0 ? 0 : latencySumMs / samples, selections,
                failuresByNode, row.http() ? peakHeap : null, row.http() ? peakThreads : null, row.http() ? peakJdbc : null);
    }

    // --- state for tests -------------------------------------------------------------------------------------

    List<TestbedNode> nodes() {
        return nodes;
    }

    long now() {
        return now;
    }

    /** Threads that have started and not stopped: each has exactly one request at a node, or is about to send one. */
    int activeThreads() {
        int active = 0;
        for (int t = 0; t < stopped.length; t++) {
            if (!stopped[t] && started(t)) {
                active++;
            }
        }
        return active;
    }

    private boolean started(int t) {
        long step = settings.rampStepSeconds() * 1_000_000_000L;
        int perGroup = settings.threads() / TestbedSettings.STEPS;
        return now >= (t / perGroup) * step;
    }

    /** Requests at the nodes: queued, or holding a worker (running or waiting for JDBC). */
    int requestsAtNodes() {
        int at = 0;
        for (TestbedNode node : nodes) {
            at += node.queue.size() + node.busyWorkers();
        }
        return at;
    }

    /** The longest any request waited for a JDBC connection, nanos. */
    long longestJdbcWaitNanos() {
        return longestJdbcWait;
    }

    /** Clients thinking, about to send, or on the failure path of their last request. */
    int requestsPending() {
        int pending = (int) running.stream().filter(Running::failure).count();
        for (Event e : events) {
            if (e.type() == EV_NEXT_REQUEST || (e.type() == EV_START && e.time() <= now)) {
                pending++;
            }
        }
        return pending;
    }
}
