package io.loadwise.console.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 while writing: a real child JVM ({@link CrashingWriter}) writes a store flat out and is killed
 * with {@link Process#destroyForcibly()} (SIGKILL on Linux) in the middle of it, three times over the same
 * directory. Every store must then open with full validation (no file moved aside), and every sample
 * the child reported complete must read back exactly.
 */
class CrashSafetyTest {

    static final long START = 1_800_000_000L;
    private static final int KILLS = 5;

    @TempDir
    Path dir;

    @Test
    void killingTheWriterMidWriteNeverLeavesAStoreUnreadable() throws Exception {
        long lastReported = -1;
        for (int kill = 0; kill < KILLS; kill++) {
            // Kill at a different point each time, while writing samples and around the creation of a
            // cluster store (every 100 samples).
            lastReported = runAndKill(150 + kill * 70);
        }
        List<String> names = MetricStoreTest.fileNames(dir);
        assertTrue(names.stream().noneMatch(n -> n.contains(".corrupt-")), "nothing moved aside: " + names);

        try (MetricStore node = MetricStore.open(dir.resolve("node.rrd"), SeriesCatalog.NODE)) {
            assertTrue(node.lastUpdateSeconds() >= lastReported, node.lastUpdateSeconds() + " < " + lastReported);
            // Every data source: a sample half-written and then written again would shift the history
            // of the data sources it had reached by one second (what the journal prevents).
            long from = START + 1;
            for (Series series : SeriesCatalog.NODE.series()) {
                int index = SeriesCatalog.NODE.indexOf(series.metric());
                double[] read = MetricStoreTest.oneSecondValues(node, series, from, lastReported);
                for (int i = 0; i < read.length; i++) {
                    assertEquals(MetricStoreTest.row(SeriesCatalog.NODE, from + i)[index], read[i], 1e-9,
                            series.metric() + " at " + (from + i));
                }
            }
        }
        for (String name : names) {
            if (name.startsWith("cluster-") && name.endsWith(".rrd")) {
                MetricStore.open(dir.resolve(name), SeriesCatalog.CLUSTER).close();
            }
        }
    }

    /** Starts a writer, kills it once it has reported {@code samples} samples, returns the last one reported. */
    private long runAndKill(int samples) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m", "-XX:TieredStopAtLevel=1", "-Dslf4j.internal.verbosity=WARN",
                "-cp", System.getProperty("java.class.path"),
                CrashingWriter.class.getName(), dir.toString()));
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long last = -1;
        int seen = 0;
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while (seen < samples && (line = out.readLine()) != null) {
                if (line.startsWith("written ")) {
                    last = Long.parseLong(line.substring("written ".length()));
                    seen++;
                }
            }
            child.destroyForcibly();
            assertTrue(child.waitFor(20, TimeUnit.SECONDS), "child did not die");
        } finally {
            child.destroyForcibly();
        }
        assertTrue(seen == samples, "child stopped early after " + seen + " samples");
        assertTrue(Files.exists(dir.resolve("node.rrd")));
        return last;
    }
}
