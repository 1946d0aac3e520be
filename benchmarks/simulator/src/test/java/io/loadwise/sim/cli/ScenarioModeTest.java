package io.loadwise.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScenarioModeTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return SimulateCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void helpListsEveryScenarioOption() {
        assertEquals(0, run("--help"));
        for (String option : List.of("--scenario", "--compare", "--seeds", "--rows", "--threads", "--scale", "--heap-mb",
                "--node-threads", "--node-queue", "--node-jdbc", "--session-kb", "--session-timeout-s",
                "--connection-ttl-ms", "--think-ms", "--demand-ms", "--cores", "--base-heap", "--jdbc-wait-ms",
                "--failure-ms", "--calibration", "--vcn3-queue",
                "--jdbc-hold-ms", "--jdbc-max-wait-ms")) {
            assertTrue(out().contains(option), "help mentions " + option);
        }
    }

    @Test
    void comparesWithTheCommittedSweepAndWritesTheTable(@TempDir Path dir) throws Exception {
        assertEquals(0, run("--scenario", "heap,combined", "--compare", "../results/2026-11-22-sweep", "--seeds", "2",
                "--rows", "http-round-robin,http-static-wrr,http-least-connections", "--out", dir.toString()), out());
        String md = Files.readString(dir.resolve("agreement.md"));
        assertTrue(md.contains("## JVM Heap Space (seed Table 11)"), md);
        assertTrue(md.contains("VCN3 48 MB, 12 threads, queue 12, 10 JDBC"), md);
        assertTrue(md.contains("Pairs of the 3 rows both ran (3)"), md);
        assertTrue(md.contains("| heap | 3 |"), md);
        assertTrue(out().contains("demand 4.00 ms = 2 cores / 499.9 samples/s"), out());
        assertTrue(out().contains("30 threads (3 started every 1 s, all for 12 s, 30 s in all)"), out());
        List<String> csv = Files.readAllLines(dir.resolve("simulated-cells.csv"));
        assertEquals(1 + 2 * 3 * 2, csv.size(), "header + scenarios x rows x seeds");
    }

    @Test
    void sameSeedSameOutput() {
        String[] args = {"--scenario", "combined", "--seeds", "2", "--rows", "http-jvm-aware,http-round-robin",
            "--threads", "30"};
        assertEquals(0, run(args));
        String first = out();
        out.reset();
        assertEquals(0, run(args));
        assertEquals(first, out());
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "--scenario;bogus;--scenario",
        "--seeds;0;--seeds",
        "--threads;25;--threads",
        "--compare;/no/such/sweep;--compare",
        "--rows;round-robin;--rows",
        "--rows;http-no-such-policy;--rows",
        "--base-heap;1.5;--base-heap",
        "--scale;0;--scale",
        "--calibration;/no/such/calibration.json;--calibration",
        "--demand-ms;-1;--demand-ms",
        "--vcn3-queue;third;--vcn3-queue",
        "--jdbc-hold-ms;-1;--jdbc-hold-ms",
    })
    void badOptionsAreUsageErrorsNamingTheOption(String option, String value, String named) {
        List<String> args = new java.util.ArrayList<>(List.of("--scenario", "baseline", "--seeds", "1", "--rows",
                "http-round-robin"));
        int at = args.indexOf(option);
        if (at >= 0) {
            args.set(at + 1, value);
        } else {
            args.add(option);
            args.add(value);
        }
        assertEquals(2, run(args.toArray(String[]::new)), err.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains(named), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aHalfQueueIsModelledAndShown() {
        assertEquals(0, run("--scenario", "http-threads", "--seeds", "1", "--rows", "http-round-robin", "--threads", "30",
                "--vcn3-queue", "half", "--calibration", "none"), err.toString(StandardCharsets.UTF_8));
        assertTrue(out().contains("VCN3's queue halved with its threads"), out());
        assertTrue(out().contains("VCN3 96 MB, 6 threads, queue 6, 10 JDBC"), out());
    }

    @Test
    void compareNeedsScenario() {
        assertEquals(2, run("--compare", "../results/2026-11-22-sweep"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--compare needs --scenario"));
    }

    @Test
    void aMistypedNumberIsAUsageErrorNamingTheOption() {
        assertEquals(2, run("--scenario", "heap", "--threads", "sixty"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--threads"), err.toString(StandardCharsets.UTF_8));
    }
}
