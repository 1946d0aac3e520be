package io.loadwise.bench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class TiedRankingTest {

    private static TiedRanking.Entry<String> entry(String name, double[] failedPercent, double... throughput) {
        return new TiedRanking.Entry<>(name, Interval.of(failedPercent), Interval.of(throughput));
    }

    private static final double[] NONE = {0, 0, 0};

    private static String ranks(List<TiedRanking.Place<String>> places) {
        return String.join(" ", places.stream().map(p -> p.item() + "=" + p.rank() + (p.tied() ? "t" : "")).toList());
    }

    @Test
    void differencesInsideTheNoiseShareARank() {
        List<TiedRanking.Place<String>> places = TiedRanking.rank(List.of(
                entry("wlc", NONE, 540, 560, 550),
                entry("lc", NONE, 530, 570, 545),
                entry("jvm", NONE, 440, 450, 460),
                entry("rr", new double[] {2, 2.5, 3}, 600, 610, 620)));
        assertEquals("wlc=1t lc=1t jvm=3 rr=4", ranks(places));
    }

    @Test
    void fewerFailuresBeatMoreThroughputButNotNoisyFailures() {
        List<TiedRanking.Place<String>> places = TiedRanking.rank(List.of(
                entry("clean", NONE, 400, 410, 420),
                // failures that cannot be told from 0: ranked by throughput with the clean one
                entry("noisy", new double[] {0, 0.3, 0}, 600, 610, 620),
                entry("failing", new double[] {5, 5.5, 6}, 900, 910, 920)));
        assertEquals("noisy=1 clean=2 failing=3", ranks(places));
    }

    @Test
    void aChainOfSmallStepsDoesNotTieTheBestWithTheWorst() {
        List<TiedRanking.Place<String>> places = TiedRanking.rank(List.of(
                entry("a", NONE, 100, 104, 108),
                entry("b", NONE, 96, 100, 104),
                entry("c", NONE, 92, 96, 100),
                entry("d", NONE, 88, 92, 96),
                entry("e", NONE, 84, 88, 92)));
        // a ties b and c (not significantly lower than a); d is, so it opens the next group with e
        assertEquals("a=1t b=1t c=1t d=4t e=4t", ranks(places));
    }

    @Test
    void singleRunsCanOnlyTie() {
        List<TiedRanking.Place<String>> places = TiedRanking.rank(List.of(
                entry("x", new double[] {0}, 300), entry("y", new double[] {1}, 500)));
        assertEquals("y=1t x=1t", ranks(places), "one failure group, then by throughput: all tied");
    }
}
