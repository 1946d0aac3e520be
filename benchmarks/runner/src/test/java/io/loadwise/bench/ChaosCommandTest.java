package io.loadwise.bench;

import static io.loadwise.bench.BenchResult.bench;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench chaos}: its help, and the options it refuses before it starts anything. */
class ChaosCommandTest {

    @TempDir
    Path tmp;

    @Test
    void helpNamesEveryCaseAndOptionAndWhereTheResultsGo() {
        BenchResult help = bench("chaos", "--help");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().startsWith("Usage: loadwise bench chaos [--cases kill,stop,...]"), help.out());
        for (String word : List.of("--cases", "--duration", "--rate", "--reloads", "--dispatcher-jar", "--root",
                "kill (SIGKILL", "stop (SIGSTOP", "policies:", "reload:", "benchmarks/results/<date>-chaos/", "SIGHUP")) {
            assertTrue(help.out().contains(word), word + " in:\n" + help.out());
        }
        assertTrue(bench("--help").out().contains("chaos "), "bench --help lists chaos");
    }

    @Test
    void anUnknownCaseIsAUsageErrorNamingTheKnownOnes() {
        BenchResult r = bench("chaos", "--cases", "kill,nuke", "--root", tmp.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--cases: unknown case 'nuke' (known: kill, stop, 500, slow, reset, policies, reload)"),
                r.err());
        assertEquals(List.of("500", "kill"), ChaosCommand.chosen(" 500,KILL"));
    }

    @Test
    void outOfRangeNumbersAreUsageErrorsBeforeAnythingStarts() {
        BenchResult shortRun = bench("chaos", "--duration", "5", "--root", tmp.toString());
        assertEquals(2, shortRun.code());
        assertTrue(shortRun.err().contains("--duration must be 10-3600 seconds, got 5"), shortRun.err());
        BenchResult fast = bench("chaos", "--rate", "5000", "--root", tmp.toString());
        assertEquals(2, fast.code());
        assertTrue(fast.err().contains("--rate must be 10-2000"), fast.err());
        BenchResult reloads = bench("chaos", "--duration", "10", "--reloads", "101", "--root", tmp.toString());
        assertEquals(2, reloads.code());
        assertTrue(reloads.err().contains("--reloads must be 1-1000 and at most 10 per second of --duration, got 101"),
                reloads.err());
        assertFalse(Files.exists(tmp.resolve("benchmarks/results")), "nothing written");
    }

    @Test
    void aMissingDispatcherJarIsAUsageErrorThatSaysHowToBuildIt() {
        BenchResult r = bench("chaos", "--cases", "kill", "--root", tmp.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("admin-console/target/loadwise.jar does not exist: build it"), r.err());
        assertFalse(Files.exists(tmp.resolve("benchmarks/results")), "nothing written");
    }
}
