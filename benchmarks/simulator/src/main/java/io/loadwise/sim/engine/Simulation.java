package io.loadwise.sim.engine;

import io.loadwise.policy.AgentSample;
import io.loadwise.sim.agent.AgentSettings;
import io.loadwise.sim.agent.SimulatedAgent;
import io.loadwise.sim.dispatch.ChooserFactory;
import io.loadwise.sim.dispatch.NodeChooser;
import io.loadwise.sim.stats.LatencyHistogram;
import io.loadwise.sim.stats.RunResult;
import io.loadwise.sim.workload.Trace;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The discrete-event loop. Arrivals come from the trace in order; completions and agent sample
 * events come from a heap. At equal times heap events go first, so a policy sees the counters after
 * the departures of that instant. Each node is a FCFS single server, so a request's start and end are
 * known the moment it is dispatched: waiting = start − arrival, response = end − arrival.
 */
public final class Simulation {

    private final ClusterModel cluster;
    private final AgentSettings agents;
    private final int warmupRequests;
    private final long seed;

    /**
     * @param warmupRequests requests at the start of the trace left out of the statistics (they still
     *     load the nodes)
     * @param seed seeds the policy's random source and the agents' noise
     */
    public Simulation(ClusterModel cluster, AgentSettings agents, int warmupRequests, long seed) {
        if (warmupRequests < 0) {
            throw new IllegalArgumentException("warm-up must be >= 0 requests, got " + warmupRequests);
        }
        this.cluster = cluster;
        this.agents = agents;
        this.warmupRequests = warmupRequests;
        this.seed = seed;
    }

    /**
     * @param demands service demand in seconds of each request at speed 1
     */
    public RunResult run(Trace trace, double[] demands, ChooserFactory chooserFactory) {
        return run(trace, demands, chooserFactory, RunObserver.NONE);
    }

    /** {@link #run(Trace, double[], ChooserFactory)}, telling {@code observer} every placement and sample. */
    public RunResult run(Trace trace, double[] demands, ChooserFactory chooserFactory, RunObserver observer) {
        if (demands.length != trace.size()) {
            throw new IllegalArgumentException("demands for " + demands.length + " requests, trace has " + trace.size());
        }
        if (warmupRequests >= trace.size()) {
            throw new IllegalArgumentException("warm-up of " + warmupRequests + " requests leaves none of the "
                    + trace.size() + " to measure");
        }
        SplittableRandom random = new SplittableRandom(seed);
        VirtualClock clock = new VirtualClock();
        List<SimulatedNode> nodes = new ArrayList<>();
        double[] speeds = cluster.speeds();
        int[] weights = cluster.weights();
        for (int i = 0; i < cluster.size(); i++) {
            nodes.add(new SimulatedNode(i, weights[i], speeds[i], clock, agents.expiryMillis() * 1_000_000L));
        }
        long first = trace.arrivalNanos(0);
        clock.advanceTo(first);
        NodeChooser chooser = chooserFactory.create(nodes, clock, random.split());
        Loop loop = new Loop(nodes, clock, new SimulatedAgent(agents.noise(), random.split()),
                trace.arrivalNanos(trace.size() - 1), observer);
        if (agents.periodMillis() > 0) {
            loop.events.push(first + agents.periodMillis() * 1_000_000L, EventQueue.SAMPLE_TAKE, 0, 0);
        }

        LatencyHistogram waiting = new LatencyHistogram();
        LatencyHistogram response = new LatencyHistogram();
        long rejected = 0;
        for (int i = 0; i < trace.size(); i++) {
            long t = trace.arrivalNanos(i);
            loop.runEventsUntil(t);
            clock.advanceTo(t);
            if (loop.samplesArrived) {
                loop.samplesArrived = false;
                chooser.onAgentSamples();
            }
            int chosen = chooser.choose(i, demands[i]);
            observer.chosen(t, chosen);
            if (chosen < 0) {
                if (i >= warmupRequests) {
                    rejected++;
                }
                continue;
            }
            SimulatedNode node = nodes.get(chosen);
            long service = Math.max(1, Math.round(demands[i] * 1e9 / node.speed()));
            long start = Math.max(t, node.busyUntil());
            long end = node.assign(t, service);
            loop.events.push(end, EventQueue.COMPLETION, node.index(), end - t);
            if (i >= warmupRequests) {
                waiting.record(start - t);
                response.record(end - t);
            }
        }
        loop.runEventsUntil(Long.MAX_VALUE);

        long makespan = Math.max(1, clock.nanoTime() - first);
        double[] utilisation = new double[nodes.size()];
        for (SimulatedNode node : nodes) {
            utilisation[node.index()] = (double) node.busyNanosUntil(clock.nanoTime()) / makespan;
        }
        return new RunResult(chooserFactory.name(), trace.meanRatePerSecond(), waiting.count(), rejected,
                waiting.meanMillis(), waiting.percentileMillis(0.5), waiting.percentileMillis(0.95),
                waiting.percentileMillis(0.99), response.meanMillis(), response.percentileMillis(0.5),
                response.percentileMillis(0.95), response.percentileMillis(0.99), utilisation,
                waiting.fractionAboveZero());
    }

    /** Heap events of one run: completions and the agents' sample-taking and delivery. */
    private final class Loop {
        final EventQueue events = new EventQueue();
        final List<SimulatedNode> nodes;
        final VirtualClock clock;
        final SimulatedAgent agent;
        final long lastArrival;
        final long[] busyAtLastSample;
        final long[] completedAtLastSample;
        final List<ArrayDeque<AgentSample>> inTransit = new ArrayList<>();
        final RunObserver observer;
        boolean samplesArrived;

        Loop(List<SimulatedNode> nodes, VirtualClock clock, SimulatedAgent agent, long lastArrival, RunObserver observer) {
            this.observer = observer;
            this.nodes = nodes;
            this.clock = clock;
            this.agent = agent;
            this.lastArrival = lastArrival;
            this.busyAtLastSample = new long[nodes.size()];
            this.completedAtLastSample = new long[nodes.size()];
            for (int i = 0; i < nodes.size(); i++) {
                inTransit.add(new ArrayDeque<>());
            }
        }

        void runEventsUntil(long t) {
            while (!events.isEmpty() && events.peekTime() <= t) {
                events.poll();
                clock.advanceTo(events.polledTime);
                switch (events.polledKind) {
                    case EventQueue.COMPLETION -> nodes.get(events.polledNode).complete(events.polledTime, events.polledValue);
                    case EventQueue.SAMPLE_TAKE -> takeSamples(events.polledTime);
                    case EventQueue.SAMPLE_DELIVER -> {
                        AgentSample sample = inTransit.get(events.polledNode).poll();
                        nodes.get(events.polledNode).deliver(sample);
                        observer.sampleDelivered(events.polledTime, events.polledNode, sample);
                        samplesArrived = true;
                    }
                    default -> throw new IllegalStateException("unknown event kind " + events.polledKind);
                }
            }
        }

        private void takeSamples(long now) {
            long period = agents.periodMillis() * 1_000_000L;
            for (SimulatedNode node : nodes) {
                long busy = node.busyNanosUntil(now);
                double fraction = (double) (busy - busyAtLastSample[node.index()]) / period;
                busyAtLastSample[node.index()] = busy;
                long completed = node.completedRequests();
                double perSecond = (completed - completedAtLastSample[node.index()]) * 1e9 / period;
                completedAtLastSample[node.index()] = completed;
                inTransit.get(node.index()).add(agent.sample(node, Math.min(1, fraction), perSecond, now / 1_000_000L));
                events.push(now + agents.delayMillis() * 1_000_000L, EventQueue.SAMPLE_DELIVER, node.index(), 0);
            }
            if (now + period <= lastArrival) {
                events.push(now + period, EventQueue.SAMPLE_TAKE, 0, 0);
            }
        }
    }
}
