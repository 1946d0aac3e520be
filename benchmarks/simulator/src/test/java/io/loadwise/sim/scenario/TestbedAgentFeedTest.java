package io.loadwise.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.scenario.CapacityScenario;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The agents reach the policies as the node agent and the dispatcher deliver them by default. */
class TestbedAgentFeedTest {

    /** Rotates over the nodes; records when its picker is rebuilt and which samples it then sees. */
    static final class Recorder implements LoadBalancingPolicy {
        final List<Long> builds = new ArrayList<>();
        final Set<AgentSample.Source> sources = EnumSet.noneOf(AgentSample.Source.class);
        final List<long[]> stamps = new ArrayList<>();

        @Override
        public String id() {
            return "recorder";
        }

        @Override
        public String description() {
            return "test";
        }

        @Override
        public boolean usesAgentMetrics() {
            return true;
        }

        @Override
        public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
            builds.add(env.nanoClock().getAsLong());
            long[] ts = new long[snapshot.size()];
            for (int i = 0; i < snapshot.size(); i++) {
                AgentSample s = snapshot.node(i).agentSample();
                if (s != null) {
                    sources.add(s.source());
                    ts[i] = s.timestampMillis();
                }
            }
            stamps.add(ts);
            int[] next = {0};
            return avoid -> snapshot.node(next[0]++ % snapshot.size());
        }
    }

    private static TestbedSettings settings(long headerMs) {
        return new TestbedSettings(30, 0.1, TestbedSettings.SWEEP_FULL_NODE, 450, 10, 1000, 0, 4.0, 2, 0.3, 10_000, 4.0,
                1000, 5, 3000, 100, headerMs, 100);
    }

    @Test
    void piggybackedSamplesRebuildThePickerAtMostEveryRefreshPeriod() {
        Recorder policy = new Recorder();
        new TestbedSimulation(settings(100), CapacityScenario.HEAP, SweepRow.parse("http-recorder"), policy, 1).run();
        List<Long> b = policy.builds;
        for (int i = 2; i < b.size(); i++) {
            assertTrue(b.get(i) - b.get(i - 1) >= 100_000_000L, "rebuilds " + (i - 1) + " and " + i + " are "
                    + (b.get(i) - b.get(i - 1)) + " ns apart");
        }
        // responses carry samples all the time: about one rebuild per 100 ms over the 30 s run
        assertTrue(b.size() > 250 && b.size() <= 302, "rebuilds: " + b.size());
        assertTrue(policy.sources.contains(AgentSample.Source.PIGGYBACK), policy.sources.toString());
        // each agent samples on its own phase: the three nodes' samples were taken at different times
        long differing = policy.stamps.stream().filter(ts -> ts[0] != ts[1] && ts[1] != ts[2] && ts[0] != ts[2]).count();
        assertTrue(differing > policy.stamps.size() / 2, differing + " of " + policy.stamps.size());
    }

    @Test
    void withoutHeadersOnlyTheOncePerSecondPollsArrive() {
        Recorder policy = new Recorder();
        new TestbedSimulation(settings(-1), CapacityScenario.HEAP, SweepRow.parse("http-recorder"), policy, 1).run();
        assertEquals(Set.of(AgentSample.Source.SIMULATED), policy.sources);
        // 3 nodes x 30 polls, some coalesced into one rebuild, plus the first picker
        assertTrue(policy.builds.size() > 30 && policy.builds.size() <= 91, "rebuilds: " + policy.builds.size());
    }

    @Test
    void tcpRowsPollNoAgent() {
        Recorder policy = new Recorder();
        new TestbedSimulation(settings(100), CapacityScenario.HEAP, SweepRow.parse("tcp-recorder"), policy, 1).run();
        assertEquals(1, policy.builds.size(), "only the first picker");
        assertTrue(policy.sources.isEmpty());
    }
}
