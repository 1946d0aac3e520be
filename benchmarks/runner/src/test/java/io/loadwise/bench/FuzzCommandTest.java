package io.loadwise.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.bench.fuzz.FuzzOutcome;
import io.loadwise.bench.fuzz.FuzzStatus;
import io.loadwise.bench.fuzz.FuzzTarget;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FuzzCommandTest {

    private static final FuzzTarget ORCA =
            new FuzzTarget("wire", "io.loadwise.wire.OrcaLoadReportFuzzTest");
    private static final FuzzTarget CONFIG =
            new FuzzTarget("dispatcher", "io.loadwise.dispatcher.config.ConfigLoaderFuzzTest");

    @TempDir
    Path tmp;

    private String[] bench(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BenchMain.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(code), out.toString(StandardCharsets.UTF_8),
            err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void helpAndBadOptionsNeverStartMaven() {
        String[] help = bench("fuzz", "--help");
        assertEquals("0", help[0]);
        assertTrue(help[1].contains("--minutes=N") && help[1].contains("benchmarks/results/<date>-fuzz/"), help[1]);
        assertTrue(bench("--help")[1].contains("fuzz"));
        String[] zero = bench("fuzz", "--minutes", "0");
        assertEquals("2", zero[0]);
        assertTrue(zero[2].contains("--minutes must be more than 0 and at most 1440, got 0"), zero[2]);
        String[] words = bench("fuzz", "--minutes", "ten");
        assertEquals("2", words[0]);
        assertTrue(words[2].contains("--minutes needs a number, got 'ten'"), words[2]);
        String[] unknown = bench("fuzz", "--only", "NoSuchFuzzTest", "--list");
        assertEquals("2", unknown[0]);
        assertTrue(unknown[2].contains("--only: unknown fuzz target 'NoSuchFuzzTest'; known: "), unknown[2]);
    }

    @Test
    void listsTheRepositorysTargets() {
        String[] list = bench("fuzz", "--list");
        assertEquals("0", list[0], list[2]);
        assertTrue(list[1].contains("ConfigLoaderFuzzTest  dispatcher  io.loadwise.dispatcher.config.ConfigLoaderFuzzTest"),
                list[1]);
        String[] one = bench("fuzz", "--list", "--only", "MetricsJsonFuzzTest");
        assertEquals("MetricsJsonFuzzTest  wire  io.loadwise.wire.MetricsJsonFuzzTest", one[1].strip());
    }

    @Test
    void pickedTargetsKeepTheirOrder() {
        assertEquals(List.of(ORCA, CONFIG),
                FuzzCommand.chosen(List.of(CONFIG, ORCA), "OrcaLoadReportFuzzTest, ConfigLoaderFuzzTest"));
        assertEquals(List.of(CONFIG, ORCA), FuzzCommand.chosen(List.of(CONFIG, ORCA), null));
        assertThrows(IllegalArgumentException.class, () -> FuzzCommand.chosen(List.of(), null));
    }

    @Test
    void eachRunOfTheDayGetsItsOwnFolder() throws Exception {
        LocalDate day = LocalDate.of(2026, 11, 23);
        assertEquals(tmp.resolve("2026-11-23-fuzz"), FuzzCommand.resultsFolder(tmp, day));
        assertEquals(tmp.resolve("2026-11-23-fuzz-2"), FuzzCommand.resultsFolder(tmp, day));
        assertTrue(Files.isDirectory(tmp.resolve("2026-11-23-fuzz-2")));
    }

    @Test
    void theSummaryHasARowPerTarget() {
        String md = FuzzCommand.summary(List.of(
                new FuzzOutcome(ORCA, new FuzzStatus("DONE", 9000, 291, 1071, 226, 4500), List.of(), null),
                new FuzzOutcome(CONFIG, null, List.of(), "Maven exited with 1 without a finding; see x|y")),
                Duration.ofMinutes(5), Instant.parse("2026-11-23T10:00:00Z"));
        assertTrue(md.contains("every target fuzzed for 5 min, started 2026-11-23T10:00:00Z"), md);
        assertTrue(md.contains("| OrcaLoadReportFuzzTest | wire | passed | 9000 | 4500 | 291 | 226 |\n"), md);
        assertTrue(md.contains("| ConfigLoaderFuzzTest | dispatcher | error: Maven exited with 1 without a finding;"
                + " see x/y | | | | |\n"), md);
    }
}
