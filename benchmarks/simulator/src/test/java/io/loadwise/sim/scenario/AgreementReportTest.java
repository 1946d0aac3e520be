package io.loadwise.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgreementReportTest {

    private static AgreementReport.Entry entry(String row, double failed, double failedHalf, double x, double xHalf) {
        return new AgreementReport.Entry(row, new Interval(failed, failedHalf, 10), new Interval(x, xHalf, 10));
    }

    @Test
    void aRankCountsTheRowsAheadBeyondTheNoiseAndTiesDoNotChain() {
        List<AgreementReport.Entry> rows = List.of(
                entry("a", 0, 0, 500, 2),
                entry("b", 19, 25, 500, 2),   // overlaps a and c
                entry("c", 64, 35, 500, 2),   // beaten by a only (failures overlap b, d; throughput ties)
                entry("d", 143, 56, 500, 2)); // beaten by a and b
        Map<String, Integer> ranks = AgreementReport.ranks(rows, AgreementReport.INTERVALS);
        assertEquals(Map.of("a", 1, "b", 1, "c", 2, "d", 3), ranks);
    }

    @Test
    void pairsCountAgreementDisagreementAndTies() {
        Map<String, AgreementReport.Entry> sim = Map.of("rr", entry("rr", 10, 5, 500, 2), "lc", entry("lc", 0, 0, 500, 2),
                "frt", entry("frt", 500, 50, 520, 3));
        Map<String, AgreementReport.Entry> bench = Map.of("rr", entry("rr", 0, 0, 400, 0), "lc", entry("lc", 0, 0, 800, 0),
                "frt", entry("frt", 100, 0, 450, 0));
        AgreementReport.Noise single = AgreementReport.singleRun(0.2);
        AgreementReport.Pairs p = AgreementReport.pairs(List.of("lc", "rr", "frt"), sim, AgreementReport.INTERVALS, bench,
                single);
        assertEquals(3, p.total());
        assertEquals(3, p.agree(), p.toString());
        assertEquals(0, p.disagree());
    }

    @Test
    void aSingleRunSweepNeedsMoreThanTwoFailuresOfDifference() {
        AgreementReport.Noise single = AgreementReport.singleRun(0.2);
        assertEquals(0, AgreementReport.order(entry("a", 0, 0, 500, 0), entry("b", 2, 0, 500, 0), single));
        assertEquals(-1, AgreementReport.order(entry("a", 0, 0, 500, 0), entry("b", 3, 0, 500, 0), single));
        // 1.96 x sqrt 2 x 20 % = 55 % of the mean throughput
        assertEquals(0, AgreementReport.order(entry("a", 0, 0, 500, 0), entry("b", 0, 0, 300, 0), single));
        assertEquals(1, AgreementReport.order(entry("a", 0, 0, 250, 0), entry("b", 0, 0, 600, 0), single));
    }
}
