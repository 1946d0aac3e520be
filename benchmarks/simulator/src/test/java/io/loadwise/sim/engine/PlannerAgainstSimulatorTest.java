package io.loadwise.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.capacity.CapacityPlanner;
import io.loadwise.capacity.QueueModel;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.sim.agent.AgentSettings;
import io.loadwise.sim.dispatch.ChooserFactory;
import io.loadwise.sim.dispatch.OracleLeastWorkLeft;
import io.loadwise.sim.dispatch.PolicyChooser;
import io.loadwise.sim.service.BoundedParetoServiceTime;
import io.loadwise.sim.service.DeterministicServiceTime;
import io.loadwise.sim.service.ExponentialServiceTime;
import io.loadwise.sim.service.ServiceTimeModel;
import io.loadwise.sim.stats.RunResult;
import io.loadwise.sim.workload.PoissonWorkload;
import io.loadwise.sim.workload.Trace;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The planner's round-robin and M/G models against the simulator, with fixed seeds and runs short enough
 * for the unit suite (400 000 requests, well under a second each). The tolerances are wider than
 * {@link ClosedFormValidationTest}'s 2 % because the runs are shorter (and, for the approximations,
 * because the formula is approximate); each says which.
 */
class PlannerAgainstSimulatorTest {

    private static final double MU = 100.0; // req/s per node, mean service 10 ms
    private static final int REQUESTS = 400_000;

    @ParameterizedTest(name = "round robin, exponential, n={0}, ρ={1}")
    @CsvSource({"2, 0.7", "4, 0.8"})
    void roundRobinWithExponentialServiceIsEnM1(int n, double rho) {
        RunResult r = simulate(n, rho, new ExponentialServiceTime(1 / MU), policy("round-robin"));
        QueueModel.Prediction p = QueueModel.ROUND_ROBIN.predict(rho * n * MU, MU, n);
        assertEquals(p.meanWaitSeconds() * 1e3, r.meanWait(), 0.04 * p.meanWaitSeconds() * 1e3, "exact model, 4 %");
        assertEquals(p.probabilityOfWaiting(), r.probabilityOfWaiting(), 0.01, "P(wait) = σ");
    }

    @ParameterizedTest(name = "round robin, constant service, n={0}, ρ={1}")
    @CsvSource({"2, 0.9", "3, 0.8", "4, 0.9"})
    void roundRobinWithConstantServiceMatchesTheKlbApproximation(int n, double rho) {
        // over four seeds the simulated wait at n = 4, ρ = 0.9 was 9.8-10.3 ms against the model's 9.42 ms:
        // the approximation runs up to ≈ 5 % low there, and a 400 000-request run adds ± 3 %
        RunResult r = simulate(n, rho, new DeterministicServiceTime(1 / MU), policy("round-robin"));
        double model = QueueModel.ROUND_ROBIN.predict(rho * n * MU, MU, n, 0).meanWaitSeconds() * 1e3;
        assertEquals(model, r.meanWait(), 0.08 * model, "approximation, 8 %");
    }

    @ParameterizedTest(name = "M/D/{0} at ρ={1}")
    @CsvSource({"2, 0.8", "4, 0.9"})
    void leeLongtonMatchesTheOracleWithConstantService(int n, double rho) {
        RunResult r = simulate(n, rho, new DeterministicServiceTime(1 / MU), OracleLeastWorkLeft.FACTORY);
        double model = QueueModel.MMN.predict(rho * n * MU, MU, n, 0).meanWaitSeconds() * 1e3;
        assertEquals(model, r.meanWait(), 0.06 * model, "approximation, 6 %");
    }

    @Test
    void pollaczekKhinchineMatchesOneNodeWithBoundedParetoService() {
        // BP(2.5, 100): c_s² = 0.623. Its third moment is large (infinite as H/L grows), so the mean wait of a
        // 400 000-request run scatters: 17.8-19.1 ms over four seeds against P-K's 18.94 ms. 8 % still tells it
        // from M/M/1 (23.3 ms) and M/D/1 (11.7 ms).
        BoundedParetoServiceTime service = new BoundedParetoServiceTime(2.5, 100, 1 / MU);
        RunResult r = simulate(1, 0.7, service, policy("round-robin"));
        double model = QueueModel.MM1.predict(0.7 * MU, MU, 1, service.scv()).meanWaitSeconds() * 1e3;
        assertEquals(model, r.meanWait(), 0.08 * model, "exact model, 8 % for the short run");
        assertEquals(0.7, r.probabilityOfWaiting(), 0.01, "M/G/1: P(wait) = ρ");
    }

    @Test
    void theOracleWaitsWithErlangCsProbability() {
        RunResult r = simulate(4, 0.8, new ExponentialServiceTime(1 / MU), OracleLeastWorkLeft.FACTORY);
        assertEquals(QueueModel.MMN.predict(320, MU, 4).probabilityOfWaiting(), r.probabilityOfWaiting(), 0.01);
    }

    @ParameterizedTest(name = "least connections over {0} nodes at ρ={1} is slower than M/M/n")
    // the planner's caveat (CapacityPlanner.LEAST_CONNECTIONS_CAVEAT): 4-14 % at ρ = 0.5-0.9. Against the
    // oracle on the same sample path, which removes the path's own error.
    @CsvSource({"2, 0.5", "4, 0.8", "8, 0.9"})
    void leastConnectionsIsWithinTheCaveatsRange(int n, double rho) {
        RunResult lc = simulate(n, rho, new ExponentialServiceTime(1 / MU), policy("least-connections"));
        RunResult oracle = simulate(n, rho, new ExponentialServiceTime(1 / MU), OracleLeastWorkLeft.FACTORY);
        double slower = lc.meanResponse() / oracle.meanResponse() - 1;
        assertTrue(slower >= 0.04 && slower <= 0.14, "least connections " + slower * 100 + " % slower than the oracle");
        assertTrue(CapacityPlanner.LEAST_CONNECTIONS_CAVEAT.contains("4-14 %"));
    }

    private static ChooserFactory policy(String id) {
        return PolicyChooser.factory(PolicyRegistry.load().get(id), PolicyOptions.EMPTY);
    }

    private static RunResult simulate(int nodes, double rho, ServiceTimeModel service, ChooserFactory chooser) {
        Trace trace = PoissonWorkload.generate(REQUESTS, rho * nodes * MU, 0, 21);
        double[] demands = service.demands(trace, new SplittableRandom(22));
        Simulation sim = new Simulation(ClusterModel.homogeneous(nodes), new AgentSettings(0, 0, 0, 3000), REQUESTS / 20, 23);
        return sim.run(trace, demands, chooser);
    }
}
