package io.loadwise.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.sim.agent.AgentSettings;
import io.loadwise.sim.dispatch.PolicyChooser;
import io.loadwise.sim.service.ExponentialServiceTime;
import io.loadwise.sim.stats.RunResult;
import io.loadwise.sim.testpolicy.TestAgentCpu;
import io.loadwise.sim.workload.PoissonWorkload;
import io.loadwise.sim.workload.Trace;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Dynamic policies are fed simulated agent samples and rebuilt on each batch, as in the dispatcher. */
class AgentFeedTest {

    private static final Trace TRACE = PoissonWorkload.generate(20_000, 140, 0, 21); // ≈ 143 s
    private static final double[] DEMANDS = new ExponentialServiceTime(0.01).demands(TRACE, new SplittableRandom(22));

    @Test
    void pickerIsRebuiltOnEverySampleBatchAndFollowsFreshSamples() {
        TestAgentCpu.builds = 0;
        RunResult r = run("test-agent-cpu", new AgentSettings(1000, 0, 0, 3000));
        long batches = TRACE.spanNanos() / 1_000_000_000L;
        assertEquals(1 + batches, TestAgentCpu.builds, "one build at start, one per delivered batch");
        // the node that reported less CPU gets the next second's traffic, so both nodes work
        assertTrue(r.utilisation()[0] > 0.2 && r.utilisation()[1] > 0.2, java.util.Arrays.toString(r.utilisation()));
    }

    @Test
    void samplesDelayedBeyondExpiryReadAsMissing() {
        RunResult r = run("test-agent-cpu", new AgentSettings(1000, 5000, 0, 3000));
        // no sample is ever fresh, so the test policy falls back to node 0 for everything
        assertEquals(0.0, r.utilisation()[1], 0.0);
    }

    @Test
    void staleLoadReportsHurtTheRealLeastLoadedPolicy() {
        // seed 001 §2.5.3: between reports every request goes to the node that looked least loaded
        RunResult fresh = run("least-loaded", new AgentSettings(20, 0, 0, 3000));
        RunResult stale = run("least-loaded", new AgentSettings(2000, 0, 0, 6000));
        assertTrue(stale.meanWait() > 3 * fresh.meanWait(),
                "stale " + stale.meanWait() + " ms vs fresh " + fresh.meanWait() + " ms");
    }

    private static RunResult run(String policy, AgentSettings agents) {
        return new Simulation(ClusterModel.homogeneous(2), agents, 0, 23).run(TRACE, DEMANDS,
                PolicyChooser.factory(PolicyRegistry.load().get(policy), PolicyOptions.EMPTY));
    }
}
