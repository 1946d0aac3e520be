package io.loadwise.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.bench.sweep.CellResult;
import io.loadwise.bench.sweep.PolicyRow;
import io.loadwise.bench.sweep.SweepRunner;
import io.loadwise.bench.sweep.SweepSettings;
import io.loadwise.bench.sweep.TestRuns;
import io.loadwise.node.NodeCapacity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepReportTest {

    @TempDir
    Path out;

    private static SweepSettings settings(List<String> rows, int repeats, String reason) {
        return new SweepSettings("sweep", List.of("baseline", "heap"), rows, 0.05, 60,
                NodeCapacity.BASELINE.withHeapMb(96), "half", 0L, 10_000L, 0, 0, "tomcat", "trade-scenario.jmx", true, 0.0, null, "per-connection", 1000,
                repeats, reason, 16, null);
    }

    private final SweepSettings all = settings(Arrays.stream(PolicyRow.values()).map(PolicyRow::key).toList(), 3,
            "a test");

    /** Runs {@code row} in {@code scenario} once per throughput given, each with {@code failed} failures. */
    private void runs(String scenario, PolicyRow row, long failed, double... throughputs) throws IOException {
        for (int i = 0; i < throughputs.length; i++) {
            SweepRunner.writeRun(out, TestRuns.run(scenario, row, i + 1, failed, throughputs[i], 7));
        }
    }

    @Test
    void tablesGiveMeansWithIntervalsForEveryPolicyRow() throws IOException {
        for (PolicyRow row : PolicyRow.values()) {
            runs("baseline", row, 2, 500, 510, 520);
        }
        new SweepReport(all, out, "Machine: test").write();

        String table = Files.readString(out.resolve("baseline.md"));
        for (PolicyRow row : PolicyRow.values()) {
            assertTrue(table.contains(" | " + row.label() + " | " + row.weightRatio() + " | 3 |"), row.label());
        }
        // 500, 510, 520: mean 510, s = 10, t(0.975, 2) = 4.303: 510 +/- 24.84
        assertTrue(table.contains("| 510.00 [485.16, 534.84] |"), table);
        assertTrue(table.contains("| Throughput [95 % CI] |"), table);
        for (String stat : List.of("*Min*", "*Max*", "*Average*", "*Standard Deviation*")) {
            assertTrue(table.contains(stat), stat);
        }
        assertTrue(table.contains("duration scale 0.05"), "the scale is printed in every table");
        assertTrue(table.contains("| 50.0 | 30.0 | 20.0 | 7 | 92 | 100 | n/a |"),
                "selection shares, then VCN3's failures and peak heap, threads and (unreported) JDBC use: " + table);
        List<String> csv = Files.readAllLines(out.resolve("baseline.csv"));
        assertEquals(1 + 12 + 4, csv.size());
        assertTrue(csv.get(0).contains(",Throughput,Throughput_ci_low,Throughput_ci_high,"), csv.get(0));
        String heap = Files.readString(out.resolve("heap.md"));
        assertTrue(heap.contains("|  | HTTP Least Loaded | 1:1:1 | 0 | not run |"), heap);
        assertEquals(100 + 12 * 24, ImageIO.read(out.resolve("plots/baseline.png").toFile()).getHeight(),
                "one bar per policy");
    }

    @Test
    void theRankingTiesPoliciesInsideTheNoiseAndKeepsTheControlApart() throws IOException {
        runs("baseline", PolicyRow.HTTP_STATIC_WRR, 0, 400, 410, 420);
        runs("baseline", PolicyRow.HTTP_LEAST_CONNECTIONS, 0, 540, 560, 550);
        runs("baseline", PolicyRow.HTTP_WEIGHTED_LEAST_CONNECTIONS, 0, 530, 570, 545);
        runs("baseline", PolicyRow.HTTP_JVM_AWARE, 0, 440, 450, 460);
        runs("baseline", PolicyRow.HTTP_ROUND_ROBIN, 30, 600, 610, 620);
        new SweepReport(all, out, "Machine: test").write();

        List<String> ranking = Files.readAllLines(out.resolve("ranking.csv"));
        assertEquals("baseline,Control,false,\"HTTP Static Weighted Round-Robin\",2:2:1,3,0.00,0.00,0.00,410.00,385.16,"
                + "434.84", ranking.get(1));
        assertTrue(ranking.get(2).startsWith("baseline,1,true,\"HTTP Least Connections\""), ranking.get(2));
        assertTrue(ranking.get(3).startsWith("baseline,1,true,\"HTTP Weighted Least Connections\""), ranking.get(3));
        assertTrue(ranking.get(4).startsWith("baseline,3,false,\"HTTP JVM-aware, headroom-weighted (departure from"
                + " the seed)\""), ranking.get(4));
        assertTrue(ranking.get(5).startsWith("baseline,4,false,\"HTTP Round-Robin\""), ranking.get(5));
        String table = Files.readString(out.resolve("baseline.md"));
        assertTrue(table.contains("| 1 (tie) | HTTP Least Connections |"), table);
        assertTrue(table.contains("| Control | HTTP Static Weighted Round-Robin |"), table);
        String md = Files.readString(out.resolve("ranking.md"));
        assertTrue(md.contains("| HTTP Least Connections | 1:1:1 | 1 (tie) | - | 1.00 |"), md);
    }

    @Test
    void rowsBeyondTheSeedsAreTabulatedUnderTheirPolicyIds() throws IOException {
        List<String> rows = List.of("http-least-connections", "http-jvm-aware-classic", "http-adaptive");
        SweepSettings three = settings(rows, 5, null);
        runs("heap", PolicyRow.parse("http-adaptive"), 0, 600, 610, 620, 615, 605);
        runs("heap", PolicyRow.parse("http-jvm-aware-classic"), 40, 300, 310, 320, 330, 340);
        new SweepReport(three, out, "Machine: test").write();

        String heap = Files.readString(out.resolve("heap.md"));
        assertTrue(heap.contains("| 1 | HTTP Adaptive (Loadwise) | 1:1:1 | 5 |"), heap);
        assertTrue(heap.contains("| 2 | HTTP JVM-aware classic (the seed's jQoStdV1Policy, Equation 2 argmin) |"), heap);
        assertTrue(heap.contains("|  | HTTP Least Connections | 1:1:1 | 0 | not run |"), heap);
    }

    @Test
    void runsCsvListsTheOrderWithTheLoadAverageAroundEachRun() throws IOException {
        SweepSettings two = settings(List.of("http-round-robin", "http-static-wrr"), 3, "a test");
        CellResult done = TestRuns.run("heap", PolicyRow.HTTP_ROUND_ROBIN, 2, 12, 480.5, 12);
        SweepRunner.writeRun(out, done);
        new SweepReport(two, out, "Machine: test").write();

        List<String> csv = Files.readAllLines(out.resolve("runs.csv"));
        assertEquals(RunsCsv.HEADER, csv.get(0));
        assertEquals(1 + 2 * 2 * 3, csv.size(), "every run of the order, run or not");
        List<String> positions = csv.stream().skip(1).map(l -> l.substring(0, l.indexOf(','))).toList();
        assertEquals(java.util.stream.IntStream.rangeClosed(1, 12).mapToObj(Integer::toString).toList(), positions);
        String line = csv.stream().filter(l -> l.contains(",2,heap,http-round-robin,")).findFirst().orElseThrow();
        assertTrue(line.endsWith(",ok,2026-11-22T00:00:00Z,1000,12,1.20,480.50,20.00,40,1.50,1.25,1.00,2.50,1.50,1.13,"),
                line);
        assertTrue(csv.stream().filter(l -> l.contains(",pending,")).count() == 11, "the rest are pending");
    }

    @Test
    void theReadmeStatesTheMethodAndWhyFewerRunsWereMade() throws IOException {
        new SweepReport(settings(List.of("http-round-robin"), 3, "the machine is shared until Friday"), out, "Machine: test")
                .write();
        String readme = Files.readString(out.resolve("README.md"));
        assertTrue(readme.contains("## Method"), readme);
        assertTrue(readme.contains("Every cell (scenario x policy) runs 3 times - fewer than the method's 5, because:"
                + " the machine is shared until Friday."), readme);
        assertTrue(readme.contains("randomised, interleaved order (seed 16)"), readme);
        assertTrue(readme.contains("Welch's two-sided t-test at 5 %"), readme);
        assertTrue(readme.contains("0 of 6 runs (2 cells x 3 repeats) have results"), readme);
        assertTrue(readme.contains("VCN3's queue where its threads are halved: halved too (--vcn3-queue half, a departure"
                + " from seed Table 9)"), readme);
        assertTrue(readme.contains("requests hold no JDBC connection beyond their work, the pool waits at most 10000 ms"),
                readme);

        new SweepReport(settings(List.of("http-round-robin"), 5, null), out, "Machine: test").write();
        assertFalse(Files.readString(out.resolve("README.md")).contains("fewer than"), "5 runs need no excuse");
    }
}
