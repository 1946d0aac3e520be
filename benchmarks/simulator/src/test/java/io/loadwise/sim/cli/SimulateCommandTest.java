package io.loadwise.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SimulateCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return SimulateCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void helpDocumentsTheOptions() {
        // picocli reports a description it cannot format (a lone '%') on System.err, not on the command's stream
        PrintStream systemErr = System.err;
        ByteArrayOutputStream picocliWarnings = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(picocliWarnings, true, StandardCharsets.UTF_8));
            assertEquals(0, run("--help"));
        } finally {
            System.setErr(systemErr);
        }
        assertEquals("", picocliWarnings.toString(StandardCharsets.UTF_8), "--help formats cleanly");
        assertTrue(out().contains("loss 0.5-3 %, one sixth"), out());
        for (String option : List.of("--workload", "--rate", "--time-scale", "--policy", "--service", "teo-ayani",
                "--agent-delay-ms", "--agent-noise", "--seed", "--out", "wc98:PATH", "clf:PATH", "oracle-lwl")) {
            assertTrue(out().contains(option), "help mentions " + option);
        }
    }

    @Test
    void theJarNeedsACommandAndHelpNamesBoth() {
        assertEquals(2, Main.run(new String[0], new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertEquals("loadwise: a command is required: simulate or capacity; see loadwise --help\n", err());
        assertEquals(0, Main.run(new String[] {"help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(out().contains("  simulate  Discrete-event simulation of a cluster of FCFS nodes behind the dispatcher.\n"
                + "  capacity  Capacity plan with the queueing models"), out());
    }

    @Test
    void listsRegisteredPoliciesAndTheOracle() {
        assertEquals(0, run("--list-policies"));
        assertTrue(out().contains("round-robin"), out());
        assertTrue(out().contains("least-connections"), out());
        assertTrue(out().contains("oracle-lwl"), out());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--bogus|unknown option '--bogus'",
        "--rate|--rate needs a value",
        "--rate abc|--rate: 'abc' is not a number",
        "--workload poisson|--rate is required for the poisson workload",
        "--rate 10 --policy no-such-policy|unknown policy 'no-such-policy', known policies:",
        "--rate 10 --workload ftp:x|--workload ftp:x: expected poisson, surge, clf:PATH or wc98:PATH",
        "--rate 10 --nodes 3 --speeds 1,2|--speeds: 2 values for 3 nodes",
        "--rate 10 --service gamma|--service gamma: unknown service-time model",
        "--rate 10 --service size-linear:1,2|size-linear needs 4 values",
        "--rate 10 --service bounded-pareto:1.1,0.5|bounded Pareto max/min ratio must be a number > 1, got 0.5",
        "--rate 10 --service-ms 5 --service-rate 3|give either --service-ms or --service-rate, not both",
        "--rate 10..5|--rate: range 10..5 needs FROM <= TO",
        "--workload clf:/no/such/file --rate 5|cannot read /no/such/file",
        "--rate 10 --policy-option x|--policy-option x: expected NAME=VALUE or POLICY:NAME=VALUE",
        "--rate 10 --policy-option heapThreshold=80|policy round-robin: policyOptions.heapThreshold: unknown option",
        "--rate 10 --policy-option jvm-aware:heapThreshold=80|policy jvm-aware is not in --policy",
        "--rate 10 --policy jvm-aware --policy-option jvm-aware:heapThreshold=180|heapThreshold: 180.0 out of range",
        "--rate 10 --requests 100 --warmup 100|warm-up of 100 requests leaves none",
        "--rate 10 --requests many|loadwise simulate: --requests needs an integer, got 'many'; see loadwise simulate --help",
        "--rate 10 --agent-noise=x|--agent-noise needs a number, got 'x'",
        "--rate 10 --workload|--workload needs a value",
        "--scheduling ps --workload surge|--link-load is required with --scheduling",
        "--scheduling ps,lifo --link-load 0.5|--scheduling lifo: unknown discipline, expected ps, fifo, srpt or srrt",
        "--scheduling ps --link-load 1.2|--link-load: loads must be within (0, 1) for a steady state, got 1.2",
        "--scheduling ps --link-load 0.5 --rate 10|--scheduling sets the rates from --link-load",
        "--scheduling ps --link-load 0.5 --wan mars|--wan mars: expected seed002 or none",
        "--scheduling ps --link-load 0.5 --link-mbps 0|--link-mbps: must be a positive number"})
    void badOptionsFailWithASpecificMessage(String args, String message) {
        assertEquals(2, run(args.split(" ")));
        assertTrue(err().contains(message), "stderr: " + err());
    }

    @Test
    void runsASweepAndWritesTableCsvAndPlots(@TempDir Path dir) throws IOException {
        int rc = run("--rate", "100,300", "--nodes", "4", "--requests", "20000", "--service-ms", "10",
                "--policy", "round-robin,least-connections", "--out", dir.toString());
        assertEquals(0, rc, err());
        String text = out();
        assertTrue(text.contains("Load 100.00 req/s"), text);
        assertTrue(text.contains("Load 300.00 req/s"), text);
        assertTrue(text.contains("oracle-lwl") && text.contains("round-robin") && text.contains("least-connections"));
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(1 + 2 * 3, csv.size(), "header + 2 rates × (oracle + 2 policies)");
        String oracleRow = csv.stream().filter(l -> l.contains(",oracle-lwl,")).findFirst().orElseThrow();
        String[] cells = oracleRow.split(",");
        assertEquals(1.0, Double.parseDouble(cells[15]), 1e-9, "the oracle's ratio to itself");
        for (String png : List.of("response-time.png", "waiting-time.png", "normalised-waiting.png", "utilisation.png")) {
            BufferedImage image = ImageIO.read(dir.resolve(png).toFile());
            assertEquals(960, image.getWidth(), png);
        }
    }

    @Test
    void heavyTailedServiceWithPoissonArrivalsNeedsNoTrace(@TempDir Path dir) throws IOException {
        assertEquals(0, run("--rate", "150", "--nodes", "2", "--requests", "20000", "--service", "bounded-pareto:1.1,1000",
                "--policy", "round-robin", "--out", dir.toString()), err());
        assertTrue(out().contains("service:  bounded Pareto α = 1.10, 1.822 .. 1822 ms, mean 10.00 ms, c_s² = 19.3"), out());
        assertTrue(out().contains("(capacity --service-scv)"), out());
        assertTrue(out().contains("policy                            rejected P(wait)    W mean"), out());
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertTrue(csv.get(0).endsWith(",util_per_node,p_wait"), csv.get(0));
        double pWait = Double.parseDouble(csv.get(1).substring(csv.get(1).lastIndexOf(',') + 1));
        assertTrue(pWait > 0.3 && pWait < 0.9, "P(wait) at ρ = 0.75: " + pWait);
    }

    @Test
    void responseSchedulingReportsSeed002sComparisons() {
        assertEquals(0, run("--scheduling", "ps,srpt,srrt", "--workload", "surge", "--dynamic-fraction", "0",
                "--requests", "5000", "--warmup", "500", "--link-load", "0.5,0.8"), err());
        String text = out();
        assertTrue(text.contains("Link load ρ = 0.80"), text);
        assertTrue(text.contains("seed 002's WAN1-WAN6"), text);
        assertTrue(text.matches("(?s).*\nSRRT:SRPT average .*\nSRRT:SRPT max .*\nSRRT:PS   average .*\nSRPT:PS   max .*"), text);
        assertTrue(text.matches("(?s).*\nsrpt\\s+\\d+\\.\\d .*"), text);
    }

    @Test
    void scopedPolicyOptionsReachOnlyTheirPolicy() {
        assertEquals(0, run("--rate", "50", "--nodes", "2", "--requests", "2000", "--policy", "round-robin,jvm-aware",
                "--policy-option", "jvm-aware:heapThreshold=80"), err());
    }

    @Test
    void requestsAPolicyFindsNoNodeForAreCountedAsRejected() {
        assertEquals(0, run("--rate", "50", "--nodes", "2", "--requests", "1000", "--policy", "test-reject-all"), err());
        assertTrue(out().contains("test-reject-all at 50.00 req/s returned no node for 1000 requests (100.000 %)"), out());
        assertTrue(out().matches("(?s).*\ntest-reject-all\\s+1000 \\(100\\.00%\\)\\s+n/a .*"),
                "rejections in the table, next to the waits: " + out());
        assertTrue(out().matches("(?s).*\noracle-lwl\\s+0\\s+0\\.\\d{3} .*"), out());
    }

    @Test
    void sameSeedGivesTheSameResults() {
        String[] args = {"--workload", "surge", "--rate", "80", "--nodes", "2", "--requests", "5000", "--service", "teo-ayani"};
        assertEquals(0, run(args));
        String first = out().substring(out().indexOf("Load "));
        out.reset();
        assertEquals(0, run(args));
        assertEquals(first, out().substring(out().indexOf("Load ")));
    }

    @Test
    void replaysAnAccessLogAsRecordedOrTimeScaled(@TempDir Path dir) throws IOException {
        StringBuilder log = new StringBuilder();
        for (int i = 0; i < 600; i++) {
            log.append(String.format("10.0.0.%d - - [10/Oct/2000:13:%02d:%02d +0000] \"GET /f%d.html HTTP/1.0\" 200 %d%n",
                    i % 9, 50 + i / 120, (i / 2) % 60, i % 30, 1000 + i));
        }
        Path file = dir.resolve("access.log");
        Files.writeString(file, log + "not a record\n");
        assertEquals(0, run("--workload", "clf:" + file, "--time-scale", "0.01", "--nodes", "2", "--service", "teo-ayani"),
                err());
        assertTrue(out().contains("skipped 1 malformed records"), out());
        assertTrue(out().contains("Load 200.00 req/s"), "600 requests over 299 s, ×0.01: " + out());
    }
}
