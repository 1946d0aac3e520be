package io.loadwise.bench.dispatcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatsTraceTest {

    @TempDir
    Path dir;

    @Test
    void writesSelectionsPerSecondThenAgentFiguresThenEachNodesConnectionsFailuresAndQueue() throws Exception {
        Map<String, Long> before = new LinkedHashMap<>();
        before.put("VCN1", 10L);
        before.put("VCN3", 4L);
        Map<String, Long> after = new LinkedHashMap<>();
        after.put("VCN1", 27L);
        after.put("VCN3", 9L);
        StatsTrace.Point first = new StatsTrace.Point(1000, 0, 0, 0, before, Map.of(), Map.of());
        StatsTrace.Point second = new StatsTrace.Point(2000, 98.5, 2, 30,
                after,
                Map.of("VCN1", new NodeLoad(40.25, 100, 90), "VCN3", NodeLoad.UNKNOWN),
                Map.of("VCN1", new StatsTrace.NodeSecond(21, 2, 62.5, 48.2, 71.5),
                        "VCN3", new StatsTrace.NodeSecond(9, 0, Double.NaN, Double.NaN, Double.NaN)));
        Path csv = dir.resolve("trace.csv");

        StatsTrace.write(List.of(first, second), csv);

        assertEquals(List.of(
                "epochMillis,throughput,failed,activeConnections,VCN1,VCN3,"
                        + "VCN1 heap%,VCN1 threads%,VCN1 jdbc%,VCN3 heap%,VCN3 threads%,VCN3 jdbc%,"
                        + "VCN1 active,VCN1 failed,VCN1 queue%,VCN3 active,VCN3 failed,VCN3 queue%,VCN1 gc%,VCN1 old%,VCN3 gc%,VCN3 old%",
                "1000,0.00,0.00,0.00,10,4,,,,,,,,,,,,,,,,",
                "2000,98.50,2.00,30.00,17,5,40.3,100.0,90.0,,,,21.0,2.0,62.5,9.0,0.0,,48.2,71.5,,"),
                Files.readAllLines(csv));
    }
}
