package io.loadwise.bench.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A fuzz run's Maven command, and how its output and findings are handled, with a stand-in for mvn. */
class FuzzRunTest {

    private static final FuzzTarget TARGET = new FuzzTarget("node-agent/core", "io.x.ParserFuzzTest");

    @TempDir
    Path tmp;

    @Test
    void runsOnlyTheFuzzExecutionOfTheTargetsModuleForTheGivenTime() {
        Path work = tmp.resolve("work");
        assertEquals(List.of("mvn", "-B", "-Dstyle.color=never", "-pl", "node-agent/core", "-am", "test-compile",
                "surefire:test@fuzz-seeds", "surefire:test@fuzz", "-Dtest=ParserFuzzTest", "-Dsurefire.failIfNoSpecifiedTests=false",
                "-Dfuzz.skip=false", "-Djazzer.max_duration=90s", "-Dfuzz.workDir=" + work.toAbsolutePath()),
                new FuzzRun(TARGET, tmp, work, Duration.ofSeconds(90)).command("mvn"));
    }

    /** A stand-in for mvn that prints what Jazzer prints and, when told to, leaves a crashing input. */
    private Path fakeMaven(boolean crash) throws Exception {
        Path script = tmp.resolve("mvn");
        Files.writeString(script, """
                #!/usr/bin/env bash
                work="${@: -1}"; work="${work#-Dfuzz.workDir=}"
                echo "[INFO] Running io.x.ParserFuzzTest"
                printf '#276\\tINITED cov: 286 ft: 1060 corp: 224/20Kb exec/s: 0 rss: 582Mb\\n'
                printf '#300\\tNEW    cov: 290 ft: 1070 corp: 225/20Kb lim: 300 exec/s: 300 rss: 582Mb L: 3/9 MS: 1 X-\\n'
                if [ "$CRASH" = 1 ]; then
                  printf 'x' > "$work/crash-00ff"
                  echo "== Java Exception: java.lang.IllegalStateException: boom"
                  echo "[ERROR] Tests run: 3, Failures: 0, Errors: 1, Skipped: 0"
                  exit 1
                fi
                printf '#9000\\tDONE   cov: 291 ft: 1071 corp: 226/20Kb lim: 300 exec/s: 4500 rss: 582Mb\\n'
                echo "[INFO] BUILD SUCCESS"
                """.replace("$CRASH", crash ? "1" : "0"), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    @Test
    void aCleanRunReportsItsLastStatus() throws Exception {
        ByteArrayOutputStream terminal = new ByteArrayOutputStream();
        Path results = tmp.resolve("results");
        FuzzOutcome outcome = new FuzzRun(TARGET, tmp, tmp.resolve("work"), Duration.ofSeconds(5))
                .run(fakeMaven(false).toString(), new PrintStream(terminal, true, StandardCharsets.UTF_8), results);
        assertTrue(outcome.passed(), outcome::toString);
        assertEquals("passed", outcome.verdict());
        assertEquals(new FuzzStatus("DONE", 9000, 291, 1071, 226, 4500), outcome.last());
        String shown = terminal.toString(StandardCharsets.UTF_8);
        assertTrue(shown.contains("fuzz: ParserFuzzTest: seeds read: 276 inputs, 0/s, coverage 286, corpus 224"), shown);
        assertTrue(shown.contains("fuzz: ParserFuzzTest: done: 9000 inputs, 4500/s, coverage 291, corpus 226"), shown);
        assertTrue(!shown.contains("fuzzing: 300 inputs"), "status lines in between are shown at most every 15 s: " + shown);
        assertTrue(Files.readString(tmp.resolve("work/maven.log")).contains("NEW    cov: 290"), "maven.log keeps all");
        assertEquals(shown.lines().map(l -> l.substring("fuzz: ParserFuzzTest: ".length())).toList(),
                Files.readAllLines(results.resolve("ParserFuzzTest.log")));
    }

    @Test
    void aFindingIsCopiedIntoTheResultsAndReportedOnlyOnce() throws Exception {
        Path results = tmp.resolve("results");
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        FuzzOutcome outcome = new FuzzRun(TARGET, tmp, tmp.resolve("work"), Duration.ofSeconds(5))
                .run(fakeMaven(true).toString(), quiet, results);
        assertEquals("1 finding", outcome.verdict());
        assertNull(outcome.problem());
        assertEquals("x", Files.readString(results.resolve("ParserFuzzTest/crash-00ff")));
        assertTrue(Files.readString(results.resolve("ParserFuzzTest.log")).contains("== Java Exception: "
                + "java.lang.IllegalStateException: boom"));

        FuzzOutcome next = new FuzzRun(TARGET, tmp, tmp.resolve("work"), Duration.ofSeconds(5))
                .run(fakeMaven(false).toString(), quiet, tmp.resolve("results2"));
        assertTrue(next.passed(), "the earlier run's crash file is not this run's finding: " + next);
    }

    @Test
    void aFailureWithoutAFindingSaysWhereTheLogIs() throws Exception {
        Path script = tmp.resolve("broken-mvn");
        Files.writeString(script, "#!/usr/bin/env bash\necho '[ERROR] COMPILATION ERROR'\nexit 1\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        FuzzOutcome outcome = new FuzzRun(TARGET, tmp, tmp.resolve("work"), Duration.ofSeconds(5))
                .run(script.toString(), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        tmp.resolve("results"));
        assertEquals("error: Maven exited with 1 without a finding; see " + tmp.resolve("work/maven.log"),
                outcome.verdict());
    }
}
