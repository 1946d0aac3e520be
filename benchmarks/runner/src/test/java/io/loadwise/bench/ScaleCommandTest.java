package io.loadwise.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench scale}: its help, the options it refuses before it starts anything, and --report-only. */
class ScaleCommandTest {

    @TempDir
    Path tmp;

    private record Result(int code, String out, String err) {
    }

    private static Result bench(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BenchMain.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpNamesEveryRowAndOptionAndWhereTheResultsGo() {
        Result help = bench("scale", "--help");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().startsWith("Usage: loadwise bench scale [--rows idle,cluster,routes]"), help.out());
        for (String word : List.of("--rows", "--connections", "--settle", "--nodes", "--reloads", "--routes",
                "--route-runs", "--name", "--note", "--report-only", "--dispatcher-jar", "--root", "idle ", "cluster ",
                "routes ", "HAProxy", "ulimit -Hn", "benchmarks/results/<date>-<name>/", "default 100000", "default 75")) {
            assertTrue(help.out().contains(word), word + " in:\n" + help.out());
        }
        assertTrue(bench("--help").out().contains("scale "), "bench --help lists scale");
    }

    @Test
    void anUnknownRowIsAUsageErrorNamingTheKnownOnes() {
        Result r = bench("scale", "--rows", "idle,huge", "--root", tmp.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--rows: unknown row 'huge' (known: idle, cluster, routes)"), r.err());
        assertEquals(List.of("routes", "idle"), ScaleCommand.chosen(" routes,IDLE"));
    }

    @Test
    void outOfRangeNumbersAndBadNamesAreUsageErrorsBeforeAnythingStarts() {
        String[][] cases = {
            {"--connections", "50", "--connections must be 100-1000000, got 50"},
            {"--settle", "-1", "--settle must be 0-3600, got -1"},
            {"--nodes", "5000", "--nodes must be 20-1000, got 5000"},
            {"--reloads", "1", "--reloads must be 2-1000, got 1"},
            {"--routes", "10", "--routes must be 20-100000, got 10"},
            {"--route-runs", "0", "--route-runs must be 1-20, got 0"},
            {"--name", "../x", "--name must be lower-case letters, digits and '-', got '../x'"},
        };
        for (String[] c : cases) {
            Result r = bench("scale", c[0], c[1], "--root", tmp.toString());
            assertEquals(2, r.code(), c[0] + ": " + r.out() + r.err());
            assertTrue(r.err().contains(c[2]), r.err());
        }
        assertFalse(Files.exists(tmp.resolve("benchmarks/results")), "nothing written");
    }

    @Test
    void aMissingDispatcherJarIsAUsageErrorThatSaysHowToBuildIt() {
        Result r = bench("scale", "--rows", "cluster", "--root", tmp.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("admin-console/target/loadwise.jar does not exist: build it"), r.err());
        assertFalse(Files.exists(tmp.resolve("benchmarks/results")), "nothing written");
    }

    @Test
    void reportOnlyRendersAnEarlierRunsRawFilesWithItsHeader() throws Exception {
        Files.writeString(tmp.resolve("header.md"), "# Scale (issue 35 item 5)\n\nsmoke\n");
        Files.writeString(tmp.resolve("cluster.csv"), "kind,nodes,value,unit\nheap,10,10240,KiB\nheap,1000,20480,KiB\n");
        Files.writeString(tmp.resolve("notes.md"), "## Notes\n\nwhy it is so\n");
        Result r = bench("scale", "--report-only", tmp.toString());
        assertEquals(0, r.code(), r.err());
        String readme = Files.readString(tmp.resolve("README.md"));
        assertTrue(readme.endsWith("| bytes |\n\n## Notes\n\nwhy it is so\n"), readme);
        assertTrue(readme.startsWith("# Scale (issue 35 item 5)\n\nsmoke\n"), readme);
        assertTrue(readme.contains("| cluster per node | heap per node, (1000 - 10) nodes | 10,592 | bytes |"), readme);
        assertTrue(Files.exists(tmp.resolve("scale.csv")) && Files.exists(tmp.resolve("scale.json")));
        Result missing = bench("scale", "--report-only", tmp.resolve("nope").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("--report-only: "), missing.err());
    }

    @Test
    void aSecondRunOfTheDayGetsItsOwnFolder() throws Exception {
        LocalDate day = LocalDate.of(2026, 11, 28);
        assertEquals(tmp.resolve("2026-11-28-scale-smoke"), ScaleCommand.folder(tmp, day, "scale-smoke"));
        assertEquals(tmp.resolve("2026-11-28-scale-smoke-2"), ScaleCommand.folder(tmp, day, "scale-smoke"));
    }
}
