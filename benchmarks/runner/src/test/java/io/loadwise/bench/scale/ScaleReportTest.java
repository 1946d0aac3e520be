package io.loadwise.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scale README, CSV and JSON from run-scale.sh's raw files: the figures, the ratios and the notes. */
class ScaleReportTest {

    @TempDir
    Path dir;

    private void raw() throws Exception {
        Files.writeString(dir.resolve("idle.csv"), """
                proxy,pid,connections_asked,connections,limited_by,rss_start_mb,rss_answered_mb,established_answered,rss_settled_mb,established_settled,settle_s
                loadwise,11,20000,9800,HAProxy's maxconn,180.0,240.0,9800,230.0,9800,75
                haproxy,12,20000,9800,HAProxy's maxconn,15.0,45.0,9800,46.0,9800,75
                loadwise,11,20000,19500,1 descriptor per connection,181.0,300.0,19500,290.0,19499,75
                """);
        Files.writeString(dir.resolve("cluster.csv"), """
                kind,nodes,value,unit
                heap,10,16000,KiB
                reload,10,30.0,ms
                reload,10,10.0,ms
                reload,10,20.0,ms
                grow,1000,400.0,ms
                all-up,1000,21,s
                heap,1000,95200,KiB
                heap-later,1000,103200,KiB
                heap-wait,1000,60,s
                reload,1000,100.0,ms
                reload,1000,140.0,ms
                up,1000,1000,nodes
                """);
        Files.createDirectories(dir.resolve("routes"));
        Files.writeString(dir.resolve("routes/runs.csv"), """
                round,size,connections,target,requests_per_s,p50_ms,p99_ms,p999_ms,cpu_us_per_request,user_us_per_request,sys_us_per_request,load1,timeouts
                1,1k,50,loadwise-routes1000-1t,9000,1,2,3,40.0,20,20,1.0,0
                1,1k,50,loadwise-routes10-1t,10000,1,2,3,36.0,18,18,1.0,0
                2,1k,50,loadwise-routes10-1t,10200,1,2,3,35.0,18,17,1.0,0
                2,1k,50,loadwise-routes1000-1t,9100,1,2,3,41.0,21,20,1.0,0
                """);
    }

    private static double value(ScaleReport report, String row, String metricStart) {
        return report.figures().stream().filter(f -> f.row().equals(row) && f.metric().startsWith(metricStart))
                .mapToDouble(ScaleReport.Figure::value).findFirst()
                .orElseThrow(() -> new AssertionError(row + " / " + metricStart + " in " + report.figures()));
    }

    @Test
    void ratiosPerNodeBytesAndMediansComeFromTheRawRows() throws Exception {
        raw();
        ScaleReport report = ScaleReport.read(dir);
        assertEquals(240.0 / 45.0, value(report, "idle ratio 9800", "RSS Loadwise / HAProxy, answered"), 1e-9);
        assertEquals(230.0 / 46.0, value(report, "idle ratio 9800", "RSS Loadwise / HAProxy, settled"), 1e-9);
        assertEquals(60.0 * 1024 / 9800, value(report, "idle loadwise 9800", "RSS per connection"), 1e-9);
        assertEquals(19499, value(report, "idle loadwise 19500", "connections held after"), 0);
        // no HAProxy at 19,500: no ratio there
        assertTrue(report.figures().stream().noneMatch(f -> f.row().equals("idle ratio 19500")));
        assertEquals((95200.0 - 16000) * 1024 / 990, value(report, "cluster per node", "heap per node"), 1e-6);
        assertEquals(20.0, value(report, "cluster 10", "reload, median of 3"), 0);
        assertEquals(8000.0 * 1024 / 1000 / 60, value(report, "cluster 1000", "heap growth per node per second"), 1e-9);
        assertEquals(103200.0 / 1024, value(report, "cluster 1000", "heap after a full GC, 60 s later"), 1e-9);
        assertEquals(120.0, value(report, "cluster 1000", "reload, median of 2"), 0);
        assertEquals(140.0, value(report, "cluster 1000", "reload, slowest"), 0);
        assertEquals(400.0, value(report, "cluster 1000", "reload growing"), 0);
        assertEquals(21.0, value(report, "cluster 1000", "seconds from that reload until every node is up"), 0);
        assertEquals(1000.0, value(report, "cluster 1000", "nodes up right after"), 0);
        assertEquals(10100.0, value(report, "routes 10", "req/s"), 0);
        assertEquals(9050.0 / 10100.0, value(report, "routes ratio 1000/10", "req/s"), 1e-9);
        assertEquals(40.5 / 35.5, value(report, "routes ratio 1000/10", "CPU per request"), 1e-9);
        assertEquals(List.of("loadwise held 9,800 of the 20,000 connections asked: HAProxy's maxconn.",
                "haproxy held 9,800 of the 20,000 connections asked: HAProxy's maxconn.",
                "loadwise held 19,500 of the 20,000 connections asked: 1 descriptor per connection."), report.notes());
    }

    @Test
    void theFilesHoldTheSameFiguresAndTheReadmeATableRowEach() throws Exception {
        raw();
        ScaleReport report = ScaleReport.read(dir);
        report.write(dir, "# Scale\n\nheader line\n");
        String readme = Files.readString(dir.resolve("README.md"));
        assertTrue(readme.startsWith("# Scale\n\nheader line\n\n| row | figure | value | unit |"), readme);
        assertTrue(readme.contains("| idle ratio 9800 | RSS Loadwise / HAProxy, answered | 5.33 | x |"), readme);
        assertTrue(readme.contains("| cluster per node | heap per node, (1000 - 10) nodes | 81,920 | bytes |"), readme);
        assertTrue(readme.contains("- haproxy held 9,800 of the 20,000 connections asked"), readme);
        List<String> csv = Files.readAllLines(dir.resolve("scale.csv"));
        assertEquals("row,metric,value,unit", csv.get(0));
        assertEquals(report.figures().size() + 1, csv.size());
        JsonNode json = new ObjectMapper().readTree(dir.resolve("scale.json").toFile());
        assertEquals(report.figures().size(), json.path("figures").size());
        assertEquals(3, json.path("notes").size());
    }

    @Test
    void rowsThatDidNotRunLeaveTheTableSayingSo() throws Exception {
        ScaleReport report = ScaleReport.read(dir);
        assertTrue(report.figures().isEmpty());
        assertTrue(report.markdown("# Scale").contains("| (no row ran) | | | |"));
        assertEquals(1, ScaleReport.routeCount("loadwise-routes1-1t"));
        assertEquals(-1, ScaleReport.routeCount("haproxy-1t"));
    }
}
