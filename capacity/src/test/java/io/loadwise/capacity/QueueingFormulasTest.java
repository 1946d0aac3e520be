package io.loadwise.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QueueingFormulasTest {

    @Test
    void reproducesSeed000TwoServerPoint() {
        // μ = 104.13 req/s, 2 servers, λ = 100 req/s: M/M/2 ≈ 12.48 ms (measured 12.49 ms), (M/M/1)^2 ≈ 18.47 ms
        assertEquals(12.48, QueueModel.MMN.predict(100, 104.13, 2).meanResponseSeconds() * 1e3, 0.005);
        assertEquals(18.47, QueueModel.MM1_N.predict(100, 104.13, 2).meanResponseSeconds() * 1e3, 0.005);
        assertEquals(0.480, QueueModel.MMN.predict(100, 104.13, 2).utilisation(), 0.0005);
    }

    @ParameterizedTest(name = "M/M/1 λ={0} μ={1}: Wq={2}")
    @CsvSource({"0.1, 0.125, 32", "0.1, 0.2, 5", "2, 2.5, 1.6"}) // seed 004 Table 2
    void mm1WaitingMatchesSeed004Table2(double lambda, double mu, double wait) {
        QueueModel.Prediction p = QueueModel.MM1.predict(lambda, mu, 1);
        assertEquals(wait, p.meanWaitSeconds(), 1e-9);
        assertEquals(p.utilisation() / (1 - p.utilisation()), p.meanInSystem(), 1e-9);
    }

    @ParameterizedTest(name = "M/M/{0} λ={1} μ={2}: Wq={3}")
    // seed 004 Table 3 recomputed with Erlang C (its printed 0.025 for c=4, λ=0.1 is a typo for 0.00258)
    @CsvSource({"2, 0.1, 0.2, 0.33333", "3, 0.1, 0.2, 0.03030", "4, 0.1, 0.2, 0.0025786", "4, 8, 2.5, 0.29822"})
    void erlangCWaitingMatchesSeed004Table3(int c, double lambda, double mu, double wait) {
        assertEquals(wait, QueueModel.MMN.predict(lambda, mu, c).meanWaitSeconds(), wait * 2e-4);
    }

    @Test
    void oneServerModelsAgreeAndLittlesLawHolds() {
        QueueModel.Prediction mm1 = QueueModel.MM1.predict(70, 100, 1);
        QueueModel.Prediction mmc = QueueModel.MMN.predict(70, 100, 1);
        assertEquals(mm1.meanResponseSeconds(), mmc.meanResponseSeconds(), 1e-12);
        assertEquals(0.7, mmc.probabilityOfWaiting(), 1e-12, "κ(k=1) = ρ (seed 000)");
        QueueModel.Prediction big = QueueModel.MMN.predict(900, 10, 100);
        assertEquals(900 * big.meanResponseSeconds(), big.meanInSystem(), 1e-9);
    }

    @Test
    void largeClustersDoNotOverflow() {
        QueueModel.Prediction p = QueueModel.MMN.predict(0.95 * 500 * 100, 100, 500);
        assertFalse(Double.isNaN(p.meanResponseSeconds()));
        assertEquals(0.01, p.meanResponseSeconds(), 0.001);
    }

    @Test
    void overloadIsUnstableNotNegative() {
        QueueModel.Prediction p = QueueModel.MMN.predict(250, 100, 2);
        assertFalse(p.stable());
        assertEquals(Double.POSITIVE_INFINITY, p.meanResponseSeconds());
        assertThrows(IllegalArgumentException.class, () -> QueueModel.MMN.predict(1, 0, 2));
        assertThrows(IllegalArgumentException.class, () -> QueueModel.MMN.predict(1, 10, 0));
    }

    @Test
    void plannerCountsNodesForTheOperatingRule() {
        CapacityPlanner planner = new CapacityPlanner(104.13);
        assertEquals(2, planner.nodesNeeded(100, 0.8));
        assertEquals(3, planner.nodesNeeded(180, 0.8));
        assertEquals(166.608, planner.rateAt(2, 0.8), 1e-9);
    }

    @ParameterizedTest(name = "μ = {0} is refused")
    @CsvSource({"0", "-1", "NaN", "Infinity"})
    void plannerRefusesAServiceRateThatIsNotAPositiveNumber(double mu) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new CapacityPlanner(mu));
        assertEquals("service rate must be a positive number, got " + mu, e.getMessage());
    }
    @ParameterizedTest(name = "E_2/M/1 at ρ = {0}")
    @CsvSource({"0.1", "0.5", "0.8", "0.95", "0.999"})
    void erlangTwoRootMatchesItsClosedForm(double rho) {
        // two nodes under round robin, μ = 1: each node is E_2/M/1, σ = (1 + 4ρ − √(1 + 8ρ))/2
        double sigma = (1 + 4 * rho - Math.sqrt(1 + 8 * rho)) / 2;
        QueueModel.Prediction p = QueueModel.ROUND_ROBIN.predict(2 * rho, 1, 2);
        assertEquals(sigma, p.probabilityOfWaiting(), 1e-12);
        assertEquals(sigma / (1 - sigma), p.meanWaitSeconds(), 1e-9 / (1 - rho));
        assertEquals(rho, p.utilisation(), 1e-12);
        assertEquals(2 * rho * p.meanResponseSeconds(), p.meanInSystem(), 1e-9, "Little's law over both nodes");
    }

    @Test
    void roundRobinOfOneNodeIsMm1AndLiesBetweenTheOtherModels() {
        assertEquals(QueueModel.MM1.predict(70, 100, 1).meanResponseSeconds(),
                QueueModel.ROUND_ROBIN.predict(70, 100, 1).meanResponseSeconds(), 1e-12);
        for (int n = 2; n <= 8; n++) {
            for (double rho = 0.1; rho < 0.99; rho += 0.1) {
                double lambda = rho * n * 100;
                double rr = QueueModel.ROUND_ROBIN.predict(lambda, 100, n).meanResponseSeconds();
                assertTrue(QueueModel.MMN.predict(lambda, 100, n).meanResponseSeconds() < rr, "M/M/n < RR at " + n + "/" + rho);
                assertTrue(rr < QueueModel.MM1_N.predict(lambda, 100, n).meanResponseSeconds(), "RR < (M/M/1)^n at " + n + "/" + rho);
            }
        }
    }

    @ParameterizedTest(name = "{0} nodes: knee near {1} req/s")
    // seed 000/003: knees at 200, 300, 400 req/s for 2, 3, 4 blades of μ = 104.13 with a constant ≈ 9.6 ms
    // service. The knee here is where R reaches five service times (docs/capacity-planning.md); the
    // simulator's round robin with deterministic service reaches it at 196, 300 and 405 req/s.
    @CsvSource({"2, 200", "3, 300", "4, 400"})
    void roundRobinWithConstantServiceReproducesTheSeedsKnees(int n, double seedKnee) {
        double knee = kneeOf(QueueModel.ROUND_ROBIN, n, 0);
        assertEquals(seedKnee, knee, 0.025 * seedKnee, "E_n/D/1 knee " + knee);
        assertTrue(kneeOf(QueueModel.ROUND_ROBIN, n, 1) < 0.92 * seedKnee, "E_n/M/1 with exponential service knees earlier");
    }

    private static double kneeOf(QueueModel model, int n, double scv) {
        double mu = 104.13;
        double lo = 0;
        double hi = n * mu * (1 - 1e-9);
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            if (model.predict(mid, mu, n, scv).meanResponseSeconds() < 5 / mu) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    @ParameterizedTest(name = "M/G/1 λ={0} μ={1} c_s²={2}: Wq={3}")
    // Pollaczek-Khinchine. M/D/1 at λ = 0.5, μ = 1: Wq = 0.5 (half M/M/1's 1.0); λ = 3, μ = 4 (ρ = 0.75),
    // exponential: 0.75; deterministic: 0.375; c_s² = 2: 1.125
    @CsvSource({"0.5, 1, 0, 0.5", "0.5, 1, 1, 1.0", "3, 4, 1, 0.75", "3, 4, 0, 0.375", "3, 4, 2, 1.125"})
    void pollaczekKhinchine(double lambda, double mu, double scv, double wait) {
        assertEquals(wait, QueueModel.MM1.predict(lambda, mu, 1, scv).meanWaitSeconds(), 1e-12);
        assertEquals(wait, QueueModel.MMN.predict(lambda, mu, 1, scv).meanWaitSeconds(), 1e-12, "Lee-Longton is exact at c = 1");
        assertEquals(wait, QueueModel.MM1_N.predict(2 * lambda, mu, 2, scv).meanWaitSeconds(), 1e-12);
    }

    @Test
    void leeLongtonHalvesTheErlangCWaitForConstantService() {
        // seed 000 Table 6.2 at 200 req/s, 2 blades: M/M/2 123.51 ms; M/D/2 ≈ 9.60 + 113.91/2 = 66.56 ms
        // (measured 66.04 ms; the simulator's exact M/D/2 66.17 ms)
        assertEquals(123.51, QueueModel.MMN.predict(200, 104.13, 2).meanResponseSeconds() * 1e3, 0.005);
        assertEquals(66.56, QueueModel.MMN.predict(200, 104.13, 2, 0).meanResponseSeconds() * 1e3, 0.005);
        assertEquals("M/D/n", QueueModel.MMN.label(0));
        assertEquals("M/G/n", QueueModel.MMN.label(2.5));
        assertEquals("E_n/M/1", QueueModel.ROUND_ROBIN.label(1));
        assertEquals("E_n/D/1", QueueModel.ROUND_ROBIN.label(0));
    }

    @Test
    void roundRobinWithGeneralServiceStaysCloseToExponentialAtCs2One() {
        double exact = QueueModel.ROUND_ROBIN.predict(180, 100, 2, 1).meanWaitSeconds();
        assertEquals(exact, QueueModel.ROUND_ROBIN.predict(180, 100, 2, 0.999999).meanWaitSeconds(), exact * 1e-5,
                "continuous from below");
        for (double rho = 0.05; rho < 0.99; rho += 0.05) {
            double r1 = QueueModel.ROUND_ROBIN.predict(rho * 200, 100, 2, 1).meanResponseSeconds();
            double above = QueueModel.ROUND_ROBIN.predict(rho * 200, 100, 2, 1.000001).meanResponseSeconds();
            assertTrue(above >= r1 - 1e-12 && above <= 1.034 * r1, "KLB's own error above c_s² = 1 at ρ = " + rho);
        }
        assertTrue(Double.isNaN(QueueModel.ROUND_ROBIN.predict(180, 100, 2, 0).probabilityOfWaiting()),
                "σ is the waiting probability for exponential service only");
        assertEquals(0, QueueModel.ROUND_ROBIN.predict(0, 100, 2).meanWaitSeconds(), 0);
    }

    @Test
    void roundRobinWithHeavyTailedServiceGrowsWithLoadFromNearZero() {
        // c_s² = 19 (bounded Pareto α = 1.1, H/L = 1000). The simulator's round robin over 2 nodes, 10 ms mean:
        // 0.45, 9.7, 97 and 876 ms at ρ = 0.01, 0.1, 0.5, 0.9. An earlier version anchored on KLB's ratio
        // predicted 1285 ms at ρ = 0.01, dividing by KLB's vanishing g at c_s² = 1.
        double[] rhos = {0.01, 0.1, 0.5, 0.9};
        double[] simulated = {0.45, 9.7, 97, 876};
        double previous = 0;
        for (int i = 0; i < rhos.length; i++) {
            double wait = QueueModel.ROUND_ROBIN.predict(rhos[i] * 200, 100, 2, 19).meanWaitSeconds() * 1e3;
            assertTrue(wait > previous, "grows with load");
            assertEquals(simulated[i], wait, Math.max(0.1, 0.05 * simulated[i]), "at ρ = " + rhos[i]);
            previous = wait;
        }
        for (double rho = 0.001; rho < 0.1; rho += 0.001) {
            double rr = QueueModel.ROUND_ROBIN.predict(rho * 200, 100, 2, 19).meanWaitSeconds();
            assertTrue(rr <= QueueModel.MM1_N.predict(rho * 200, 100, 2, 19).meanWaitSeconds(),
                    "round robin never waits longer than a random split (M/G/1 per node) at ρ = " + rho);
        }
    }

    @ParameterizedTest(name = "c_s² = {0} is refused")
    @CsvSource({"-0.5", "NaN", "Infinity"})
    void aServiceVariabilityThatIsNotANonNegativeNumberIsRefused(double scv) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QueueModel.MMN.predict(1, 10, 2, scv));
        assertEquals("service-time squared coefficient of variation must be >= 0 (0 constant, 1 exponential), got " + scv,
                e.getMessage());
    }
}
