package io.loadwise.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.sim.agent.AgentSettings;
import io.loadwise.sim.dispatch.PolicyChooser;
import io.loadwise.sim.service.ExponentialServiceTime;
import io.loadwise.sim.stats.RunResult;
import io.loadwise.sim.workload.PoissonWorkload;
import io.loadwise.sim.workload.Trace;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * orca-wrr fed by the simulated agents' ORCA fields: nodes of speeds 1 and 3 at 60 % of the cluster's
 * capacity (240 of 400 req/s, 10 ms demands). Round robin gives the slow node 120 req/s, more than its
 * 100; orca-wrr does too for its 10 s blackout, then weighs the nodes by qps / utilization, their service
 * rates, 1:3. The trace spans 120 s of virtual time, so the blackout is a twelfth of it.
 */
class OrcaWrrSimulationTest {

    private static final Trace TRACE = PoissonWorkload.generate(28_800, 240, 0, 31); // ≈ 120 s
    private static final double[] DEMANDS = new ExponentialServiceTime(0.01).demands(TRACE, new SplittableRandom(32));
    private static final ClusterModel ONE_AND_THREE = new ClusterModel(new double[] {1, 3}, new int[] {1, 1});

    @Test
    void weightsFromTheSimulatedAgentsBalanceNodesOfUnequalSpeed() {
        assertTrue(TRACE.spanNanos() > 100_000_000_000L, "the run must outlast the 10 s blackout many times");
        RunResult orca = run("orca-wrr", new AgentSettings(1000, 0, 0.1, 3000));
        RunResult roundRobin = run("round-robin", new AgentSettings(1000, 0, 0.1, 3000));
        assertTrue(roundRobin.utilisation()[0] > 0.99, "round robin overloads the slow node: "
                + Arrays.toString(roundRobin.utilisation()));
        assertTrue(orca.meanWait() * 10 < roundRobin.meanWait(), "orca-wrr " + orca.meanWait() + " ms, round robin "
                + roundRobin.meanWait() + " ms");
        // after the blackout both nodes run near 60 %; the slow one's first 10 s at 100 % lift its mean a little
        assertEquals(0.6, orca.utilisation()[1], 0.08, Arrays.toString(orca.utilisation()));
        assertTrue(orca.utilisation()[0] < 0.8, Arrays.toString(orca.utilisation()));
    }

    @Test
    void withoutAgentsItIsRoundRobin() {
        RunResult orca = run("orca-wrr", new AgentSettings(0, 0, 0, 3000));
        RunResult roundRobin = run("round-robin", new AgentSettings(0, 0, 0, 3000));
        assertEquals(roundRobin.utilisation()[0], orca.utilisation()[0], 0.02);
    }

    private static RunResult run(String policy, AgentSettings agents) {
        return new Simulation(ONE_AND_THREE, agents, 0, 33).run(TRACE, DEMANDS,
                PolicyChooser.factory(PolicyRegistry.load().get(policy), PolicyOptions.EMPTY));
    }
}
