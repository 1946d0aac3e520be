package io.loadwise.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.sim.agent.AgentSettings;
import io.loadwise.sim.dispatch.ChooserFactory;
import io.loadwise.sim.dispatch.OracleLeastWorkLeft;
import io.loadwise.sim.dispatch.PolicyChooser;
import io.loadwise.sim.service.SizeLinearServiceTime;
import io.loadwise.sim.stats.RunResult;
import io.loadwise.sim.workload.SurgeParameters;
import io.loadwise.sim.workload.SurgeWorkload;
import io.loadwise.sim.workload.Trace;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seed 004's time-scaling identity (its Tables 6 and 7): n servers of power X/n under load λ behave as
 * n servers of power X under load nλ with every time multiplied by n. Here the faster case is made by
 * the trace's own time scaling (inter-arrival times divided by n), so the test covers both.
 */
class TimeScalingIdentityTest {

    private static final int NODES = 4;

    @ParameterizedTest
    @ValueSource(strings = {"round-robin", "least-connections", OracleLeastWorkLeft.NAME})
    void slowerNodesAtLowerRateScaleAllTimesByN(String policy) {
        ChooserFactory chooser = policy.equals(OracleLeastWorkLeft.NAME) ? OracleLeastWorkLeft.FACTORY
                : PolicyChooser.factory(PolicyRegistry.load().get(policy), PolicyOptions.EMPTY);
        Trace base = SurgeWorkload.generate(SurgeParameters.DEFAULT, 60_000, 5);
        double[] demands = SizeLinearServiceTime.TEO_AYANI.demands(base, new SplittableRandom(6));
        double meanDemand = java.util.Arrays.stream(demands).average().orElseThrow();
        // each full-speed node at 70 % utilisation
        double rate = 0.7 * NODES / meanDemand;
        Trace slow = base.scaledToRate(rate / NODES);
        Trace fast = slow.timeScaled(1.0 / NODES);
        assertEquals(rate, fast.meanRatePerSecond(), rate * 1e-6, "time scaling multiplies the rate by n");

        RunResult slowNodes = run(ClusterModel.uniform(NODES, 1.0 / NODES), slow, demands, chooser);
        RunResult fullNodes = run(ClusterModel.uniform(NODES, 1.0), fast, demands, chooser);

        assertTrue(fullNodes.meanWait() > 0, "the load must queue for the identity to say anything");
        assertEquals(NODES * fullNodes.meanWait(), slowNodes.meanWait(), 1e-6 * slowNodes.meanWait());
        assertEquals(NODES * fullNodes.meanResponse(), slowNodes.meanResponse(), 1e-6 * slowNodes.meanResponse());
        assertEquals(fullNodes.utilisationMean(), slowNodes.utilisationMean(), 1e-6);
    }

    private static RunResult run(ClusterModel cluster, Trace trace, double[] demands, ChooserFactory chooser) {
        return new Simulation(cluster, new AgentSettings(0, 0, 0, 3000), 0, 3).run(trace, demands, chooser);
    }
}
