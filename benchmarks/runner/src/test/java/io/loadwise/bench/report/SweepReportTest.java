package io.loadwise.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadwise.bench.sweep.CellResult;
import io.loadwise.bench.sweep.PolicyRow;
import io.loadwise.bench.sweep.SweepRunner;
import io.loadwise.bench.sweep.SweepSettings;
import io.loadwise.bench.dispatcher.NodeLoad;
import io.loadwise.node.NodeCapacity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepReportTest {

    @TempDir
    Path out;

    private final SweepSettings settings = new SweepSettings("sweep", List.of("baseline", "heap"),
            Arrays.stream(PolicyRow.values()).map(PolicyRow::key).toList(), 0.05, 30, NodeCapacity.BASELINE.withHeapMb(96), 0, 0, "tomcat",
            "trade-scenario.jmx", true, "per-connection", 1000);

    private void cell(String scenario, PolicyRow row, long failed, double throughput) throws IOException {
        CellResult r = new CellResult(scenario, row.key(), null, 1000, failed, failed / 10.0, throughput, 20, 15, 40, 90,
                failed == 0 ? Map.of() : Map.of("503", failed), 1000, 0, 21, 19, 0.01, 0.02, 18, 1.001, 25,
                Map.of("VCN1", 50L, "VCN2", 30L, "VCN3", 20L), false, "2026-11-22T00:00:00Z", 50, 24,
                Map.of("VCN3", new NodeLoad(91.5, 100, Double.NaN)), Map.of("VCN3", 7L));
        Path file = SweepRunner.cellFile(out, scenario, row.key());
        Files.createDirectories(file.getParent());
        new ObjectMapper().writeValue(file.toFile(), r);
    }

    @Test
    void tablesHaveEveryPolicyRowAndTheSeedsSummaryRows() throws IOException {
        for (PolicyRow row : PolicyRow.values()) {
            cell("baseline", row, row.ordinal() % 3, 500 + row.ordinal());
        }
        new SweepReport(settings, out, "Machine: test").write();

        String table = Files.readString(out.resolve("baseline.md"));
        for (PolicyRow row : PolicyRow.values()) {
            assertTrue(table.contains("| " + row.label() + " | " + row.weightRatio() + " |"), row.label());
        }
        for (String stat : List.of("*Min*", "*Max*", "*Average*", "*Standard Deviation*")) {
            assertTrue(table.contains(stat), stat);
        }
        assertTrue(table.contains("duration scale 0.05"), "the scale is printed in every table");
        assertTrue(table.contains("| 50.0 | 30.0 | 20.0 | 7 | 92 | 100 | n/a |"),
                "selection shares, then VCN3's failures and peak heap, threads and (unreported) JDBC use: " + table);
        List<String> csv = Files.readAllLines(out.resolve("baseline.csv"));
        assertEquals(1 + 12 + 4, csv.size());
        String heap = Files.readString(out.resolve("heap.md"));
        assertTrue(heap.contains("| HTTP Least Loaded | 1:1:1 | not run |"), heap);
        assertEquals(100 + 12 * 24, ImageIO.read(out.resolve("plots/baseline.png").toFile()).getHeight(),
                "one bar per policy");
    }

    @Test
    void theRankingPutsTheControlFirstThenFewestFailuresThenThroughput() throws IOException {
        cell("baseline", PolicyRow.HTTP_STATIC_WRR, 5, 400);
        cell("baseline", PolicyRow.TCP_RANDOM, 0, 300);
        cell("baseline", PolicyRow.HTTP_LEAST_CONNECTIONS, 0, 350);
        cell("baseline", PolicyRow.HTTP_FASTEST_RESPONSE_TIME, 10, 600);
        cell("heap", PolicyRow.TCP_RANDOM, 4, 300);
        new SweepReport(settings, out, "Machine: test").write();

        List<String> ranking = Files.readAllLines(out.resolve("ranking.csv"));
        assertEquals("Control,\"HTTP Static Weighted Round-Robin\",2:2:1,1,1000,400.00,5.00", ranking.get(1));
        assertTrue(ranking.get(2).startsWith("1,\"HTTP Least Connections\""), ranking.get(2));
        assertTrue(ranking.get(3).startsWith("2,\"TCP Random\",1:1:1,2,1000,300.00,2.00"), ranking.get(3));
        assertTrue(ranking.get(4).startsWith("3,\"HTTP Fastest Response Time\""), ranking.get(4));
    }
}
