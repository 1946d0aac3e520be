package io.loadwise.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
