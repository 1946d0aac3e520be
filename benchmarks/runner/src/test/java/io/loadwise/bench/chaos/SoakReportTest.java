package io.loadwise.bench.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak's results folder, from a made-up 10-minute run. */
class SoakReportTest {

    private static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    private static SoakResult run(long rssGrowthPerSample, boolean failOutside) {
        SoakStats stats = new SoakStats();
        for (int i = 0; i < 600; i++) {
            stats.record(Outcome.answered(i, i * S, 200, "a"), 3_000_000L);
        }
        stats.record(Outcome.failed(1_000, 125 * S, "connection reset"), S); // in the kill window
        if (failOutside) {
            stats.record(Outcome.answered(1_001, 300 * S, 504, "x"), S);
        }
        List<ProcSample> samples = new ArrayList<>();
        for (int t = 0; t <= 600; t += 10) {
            samples.add(new ProcSample(t, 200_000 + rssGrowthPerSample * t / 10, 90, 40));
        }
        List<SoakFault> faults = List.of(new SoakFault(1, "kill", 120, 4, true, "node a SIGKILLed"),
                new SoakFault(2, "storm", 180, 1, false, "FAILED: 3 failed"));
        return new SoakResult(10, 300, "--rate 300", 60, false, "1.0 → 1.2", stats, samples, faults,
                List.of(KillWindows.Window.of(120 * S, 126 * S)));
    }

    @Test
    void aFlatRunWithFailuresOnlyInKillWindowsPassesAndWritesEveryFile() throws Exception {
        assertTrue(SoakReport.write(dir, run(0, false), "./loadwise bench soak --minutes 10", "now"));
        String readme = Files.readString(dir.resolve("README.md"), StandardCharsets.UTF_8);
        assertTrue(readme.contains("| 0 failed requests outside kill windows | 0 outside, 1 inside 1 kill windows"
                + " (connection reset: 1) | pass |"), readme);
        assertTrue(readme.contains("| RSS slope < 1 %/hour | +0.00 %/hour | pass |"), readme);
        assertTrue(readme.contains("**etcd member restarts skipped**"), readme);
        assertTrue(readme.contains("| 3 | 61 | 1 | 1 | 0 | 3.0 | 195.3 | 90 | 40 | kill |"), readme);
        assertTrue(readme.contains("| 4 | 60 | 0 | 0 | 0 | 3.0 | 195.3 | 90 | 40 | storm FAILED |"), readme);
        List<String> csv = Files.readAllLines(dir.resolve("soak.csv"));
        assertEquals("seconds,minute,rss_kb,fds,threads", csv.get(0));
        assertEquals(62, csv.size(), "a header and 61 samples");
        assertEquals("0.0,1,200000,90,40", csv.get(1));
        List<String> faults = Files.readAllLines(dir.resolve("faults.csv"));
        assertEquals("2,storm,180.0,1.0,false,\"FAILED: 3 failed\"", faults.get(2));
        java.awt.image.BufferedImage plot = javax.imageio.ImageIO.read(dir.resolve("soak.png").toFile());
        assertEquals(io.loadwise.capacity.chart.TraceChart.WIDTH, plot.getWidth(), "four panels over one time axis");
        assertEquals(40 + 4 * (120 + 40), plot.getHeight());
    }

    @Test
    void aGrowingRssOrAFailureOutsideAKillWindowFails() throws Exception {
        // +1 MB every 10 s on 200 MB: far above 1 % an hour
        assertFalse(SoakReport.write(dir, run(1_000, false), "soak", "now"));
        String readme = Files.readString(dir.resolve("README.md"));
        assertTrue(readme.contains("| RSS slope < 1 %/hour |") && readme.contains("%/hour | **FAIL** |"), readme);
        assertFalse(SoakReport.write(dir, run(0, true), "soak", "now"));
        assertTrue(Files.readString(dir.resolve("README.md")).contains("| 1 outside, 1 inside 1 kill windows"));
    }
}
