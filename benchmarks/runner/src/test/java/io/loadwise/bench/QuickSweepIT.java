package io.loadwise.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.bench.sweep.CellResult;
import io.loadwise.bench.sweep.PolicyRow;
import io.loadwise.bench.sweep.SweepRunner;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI smoke run: {@code sweep --quick} (combined scenario x all 12 policy rows, real nodes, dispatcher
 * and JMeter) on the packaged jars of this build. Checks that the table has every policy row, that each
 * cell's failure and sample counts are JMeter's own (recounted here from the JTL files), and that no
 * child process is left behind.
 */
class QuickSweepIT {

    @TempDir
    Path tmp;

    @Test
    void quickSweepTabulatesEveryPolicyRowWithFailuresFromTheJtl() throws Exception {
        Path root = Locations.defaultRoot();
        Path out = tmp.resolve("results");
        Path work = tmp.resolve("work");
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        int errors = SweepCommand.run(List.of("--quick", "--root", root.toString(), "--out", out.toString(),
                "--work-dir", work.toString()), new PrintStream(progress, true, StandardCharsets.UTF_8));
        String log = progress.toString(StandardCharsets.UTF_8);
        assertEquals(0, errors, log);
        assertTrue(log.contains("ETA"), log);

        String table = Files.readString(out.resolve("combined.md"));
        List<String> csv = Files.readAllLines(out.resolve("combined.csv"));
        for (PolicyRow row : PolicyRow.values()) {
            assertTrue(table.contains("| " + row.label() + " | " + row.weightRatio() + " | "), row.label());
            CellResult cell = SweepRunner.readRun(out, "combined", row.key(), 1); // --quick: one run
            assertNull(cell.error());
            long[] counted = countJtl(work.resolve("combined-" + row.key()).resolve("jmeter/results.jtl"));
            assertTrue(counted[0] > 0, row.key() + ": JMeter sampled nothing");
            assertEquals(counted[0], cell.samples(), row.key() + " samples");
            assertEquals(counted[1], cell.failed(), row.key() + " failed");
            String csvRow = csv.stream().filter(l -> l.startsWith("\"" + row.label() + "\"")).findFirst().orElseThrow();
            String[] fields = csvRow.substring(row.label().length() + 3).split(",");
            assertEquals("ok", fields[1], csvRow);
            // weight, status, rank, runs, Samples, Active Conns, Throughput with its interval, Failed
            assertEquals(Long.toString(counted[0]), fields[4], "Samples column of " + row.key());
            assertEquals(Long.toString(counted[1]), fields[9], "Failed column of " + row.key());
            assertTrue(cell.lbSamples() > 0, row.key() + ": the dispatcher counted no samples");
            // an agent-driven policy that can read no agent refuses every node: that must not pass unseen
            assertTrue(cell.selections().values().stream().mapToLong(Long::longValue).sum() > 0,
                    row.key() + ": the dispatcher selected no node " + cell.selections());
            assertTrue(cell.failed() * 2 < cell.samples(), row.key() + ": most requests failed");
        }
        assertTrue(Files.readString(out.resolve("ranking.md")).contains("| Control | HTTP Static Weighted Round-Robin"));
        assertTrue(Files.size(out.resolve("plots/combined.png")) > 0);
        assertEquals(List.of(), ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .map(p -> p.pid() + " " + p.info().command().orElse("?")).toList(), "processes left running");
    }

    /** Samples and failed samples of a CSV JTL, counted independently of the runner's parser. */
    private static long[] countJtl(Path jtl) throws IOException {
        List<String> lines = Files.readAllLines(jtl, StandardCharsets.UTF_8);
        int success = List.of(lines.get(0).split(",")).indexOf("success");
        long samples = 0;
        long failed = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.replaceAll("\"[^\"]*\"", "q").split(",", -1);
            samples++;
            if (fields[success].equals("false")) {
                failed++;
            }
        }
        return new long[] {samples, failed};
    }
}
