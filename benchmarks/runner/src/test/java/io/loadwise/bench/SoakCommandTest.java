package io.loadwise.bench;

import static io.loadwise.bench.BenchResult.bench;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench soak}: its help, and the options it refuses before it starts anything. */
class SoakCommandTest {

    @TempDir
    Path tmp;

    @Test
    void helpNamesEveryOptionFaultAndWhereTheResultsGo() {
        BenchResult help = bench("soak", "--help");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().startsWith("Usage: loadwise bench soak [--minutes N]"), help.out());
        for (String word : List.of("--minutes", "--rate", "--fault-every", "--etcd", "--name", "--dispatcher-jar", "--root",
                "kill (", "reload (", "policy (", "etcd (", "slow (", "storm (", "benchmarks/results/<date>-soak[-NAME]/",
                "soak.png", "70 %")) {
            assertTrue(help.out().replaceAll("\\s+", " ").contains(word), word + " in:\n" + help.out());
        }
        assertTrue(bench("--help").out().contains("soak "), "bench --help lists soak");
    }

    private void refused(String message, String... args) {
        List<String> all = new java.util.ArrayList<>(List.of("soak"));
        all.addAll(List.of(args));
        all.addAll(List.of("--root", tmp.toString()));
        BenchResult r = bench(all.toArray(String[]::new));
        assertEquals(2, r.code(), String.join(" ", all));
        assertTrue(r.err().contains(message), r.err());
        assertFalse(Files.exists(tmp.resolve("benchmarks/results")), "nothing written");
    }

    @Test
    void outOfRangeOptionsAreUsageErrorsBeforeAnythingStarts() {
        refused("--minutes must be 1-600, got 0", "--minutes", "0");
        refused("--minutes must be 1-600, got 601", "--minutes", "601");
        refused("--rate must be 10-5000 requests per second, got 9", "--rate", "9");
        refused("--rate must be 10-5000 requests per second, got 5001", "--rate", "5001");
        refused("--fault-every must be 20-3600 seconds, got 19", "--fault-every", "19");
        refused("--name must be 1-40 letters, digits, '-' or '_', got '../x'", "--name", "../x");
        refused("admin-console/target/loadwise.jar does not exist: build it", "--minutes", "1");
    }

    @Test
    void theDefaultsAreAnHourAFaultAMinuteAndAMeasuredRate() throws Exception {
        SoakCommand c = new SoakCommand();
        picocli.CommandLine line = new picocli.CommandLine(c);
        line.parseArgs();
        c.validate();
        assertEquals(60, c.minutes);
        assertEquals(60, c.faultEvery);
        assertEquals(null, c.rate);
        assertFalse(c.etcd);
        assertEquals("./loadwise bench soak --minutes 60 --fault-every 60", c.commandLine());
        line.parseArgs("--minutes", "4", "--fault-every", "30", "--name", "soak-smoke", "--rate", "500", "--etcd");
        assertEquals("./loadwise bench soak --minutes 4 --rate 500 --fault-every 30 --etcd --name soak-smoke",
                c.commandLine());
    }

    @Test
    void theFolderIsNamedByDateAndNameAndNeverReused() throws Exception {
        LocalDate day = LocalDate.of(2026, 11, 28);
        assertEquals("2026-11-28-soak", SoakCommand.folderName(day, null));
        assertEquals("2026-11-28-soak-long", SoakCommand.folderName(day, "long"));
        assertEquals("2026-11-28-soak-smoke", SoakCommand.folderName(day, "soak-smoke"), "not soak-soak-smoke");
        Path first = ChaosCommand.folder(tmp, day + "-soak-smoke");
        Path second = ChaosCommand.folder(tmp, day + "-soak-smoke");
        assertEquals("2026-11-28-soak-smoke", first.getFileName().toString());
        assertEquals("2026-11-28-soak-smoke-2", second.getFileName().toString());
    }
}
