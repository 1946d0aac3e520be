package io.loadwise.bench;

import static io.loadwise.bench.BenchResult.bench;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The command line every {@code bench} sub-command shares: its help lists each of its options, and an
 * unknown option or a number that is not one is a usage error (exit code 2) naming it, before anything runs.
 */
class BenchCommandLineTest {

    @TempDir
    Path tmp;

    static Stream<String> commands() {
        return BenchMain.commands().stream().map(c -> new CommandLine(c).getCommandName());
    }

    private static CommandLine command(String name) {
        return BenchMain.commands().stream().map(CommandLine::new).filter(c -> c.getCommandName().equals(name))
                .findFirst().orElseThrow();
    }

    @Test
    void benchHelpListsEveryCommandWithItsSummary() {
        BenchResult help = bench("--help");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().startsWith("Usage: loadwise bench <command> [options]\n"), help.out());
        for (CommandLine command : BenchMain.commands().stream().map(CommandLine::new).toList()) {
            String summary = command.getCommandSpec().usageMessage().description()[0];
            assertTrue(help.out().contains(command.getCommandName() + " ")
                    && help.out().contains(summary.substring(0, 30)), command.getCommandName() + ":\n" + help.out());
        }
        assertEquals(help.out(), bench("-h").out());
    }

    @Test
    void benchAloneShowsTheCommandsAndIsAUsageError() {
        BenchResult alone = bench();
        assertEquals(2, alone.code());
        assertTrue(alone.out().contains("sweep") && alone.out().contains("fuzz"), alone.out());
    }

    @ParameterizedTest
    @MethodSource("commands")
    void everyCommandsHelpListsEachOfItsOptions(String name) {
        // picocli reports a description it cannot format (a lone '%') on System.err, not on the command's stream
        PrintStream systemErr = System.err;
        ByteArrayOutputStream picocliWarnings = new ByteArrayOutputStream();
        BenchResult help;
        try {
            System.setErr(new PrintStream(picocliWarnings, true, StandardCharsets.UTF_8));
            help = bench(name, "--help");
        } finally {
            System.setErr(systemErr);
        }
        assertEquals("", picocliWarnings.toString(StandardCharsets.UTF_8), name + " --help formats cleanly");
        assertEquals(0, help.code(), help.err());
        assertEquals("", help.err());
        assertTrue(help.out().startsWith("Usage: loadwise bench " + name + " "), help.out());
        List<OptionSpec> options = command(name).getCommandSpec().options();
        assertTrue(options.size() > 1, name + " has options");
        for (OptionSpec option : options) {
            assertTrue(help.out().contains(option.longestName()), name + " --help lists " + option.longestName()
                    + ":\n" + help.out());
        }
        assertEquals(help.out(), bench("help", name).out(), "bench help " + name);
        assertEquals(help.out(), bench(name, "-h").out());
    }

    @ParameterizedTest
    @MethodSource("commands")
    void anUnknownOptionIsAUsageErrorNamingIt(String name) {
        BenchResult bad = bench(name, "--no-such-option", "1", "--root", tmp.toString());
        assertEquals(2, bad.code(), bad.err());
        assertEquals("loadwise bench " + name + ": unknown option '--no-such-option'; see loadwise bench " + name
                + " --help\n", bad.err());
        assertEquals("", bad.out(), "nothing runs");
    }

    @Test
    void aBadNumberIsAUsageErrorNamingTheOption() {
        assertBadNumber("--threads needs an integer, got 'many'", "sweep", "--threads", "many");
        assertBadNumber("--scale needs a number, got 'NaN'", "sweep", "--scale", "NaN");
        assertBadNumber("--heap-mb needs an integer, got '1.5'", "calibrate", "--heap-mb", "1.5");
        assertBadNumber("--connection-ttl-ms needs an integer, got 'x'", "calibrate", "--connection-ttl-ms=x");
        assertBadNumber("--minutes needs a number, got 'ten'", "fuzz", "--minutes", "ten");
    }

    private void assertBadNumber(String message, String... args) {
        BenchResult bad = bench(args);
        assertEquals(2, bad.code(), bad.err());
        assertEquals("loadwise bench " + args[0] + ": " + message + "; see loadwise bench " + args[0] + " --help\n",
                bad.err());
        assertEquals("", bad.out(), "nothing runs");
    }

    @Test
    void overheadNamesAnUnknownBenchmark() {
        BenchResult bad = bench("overhead", "--only", "disk", "--root", tmp.toString());
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--only: unknown benchmark 'disk'; known: proxy, tls-h2, policies, agent"), bad.err());
        assertFalse(Files.exists(tmp.resolve("benchmarks")), "no script ran");
    }

    @Test
    void calibrateRefusesAFlagAsTheVariedOption() {
        BenchResult bad = bench("calibrate", "--vary", "quick=a,b");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--vary: 'quick' is not a sweep option that can be varied"), bad.err());
    }

    @Test
    void calibrateChecksEveryVariedValueBeforeTheFirstRun() throws IOException {
        Path fake = Files.writeString(tmp.resolve("fake.jar"), "not started by these tests");
        BenchResult bad = bench("calibrate", "--root", tmp.toString(), "--dispatcher-jar", fake.toString(), "--launcher-jar",
                fake.toString(), "--agent-jar", "none", "--vary", "heap-mb=64,big");
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("--heap-mb needs an integer, got 'big'"), bad.err());
        assertFalse(bad.out().contains("calibrating"), bad.out());
        assertFalse(Files.exists(tmp.resolve("benchmarks")), "nothing ran");
    }

    @Test
    void calibratePassesTheSweepOptionsOnAsGiven() {
        CalibrateCommand calibrate = new CalibrateCommand();
        Cli.parse(Cli.configure(new CommandLine(calibrate)), "--quick", "--session-timeout-s", "10", "--vary",
                "session-kb=1,2", "--session-timeout-s=12", "--scenarios", "heap", "--agent-jar", "none", "--war", "a b.war");
        List<String> given = calibrate.sweepArguments();
        assertEquals(List.of("--quick", "--session-timeout-s", "10", "--session-timeout-s", "12", "--agent-jar", "none",
                "--war", "a b.war"), given);
        SweepOptions passed = SweepCommand.parse(given).options;
        assertTrue(passed.quick);
        assertEquals(12, passed.sessionTimeoutS);
        assertEquals("none", passed.agentJar);
        assertEquals(Path.of("a b.war"), passed.war);
    }

    private List<String> fakeJars() throws IOException {
        Path fake = Files.writeString(tmp.resolve("fake.jar"), "not started by these tests");
        return List.of("--root", tmp.toString(), "--dispatcher-jar", fake.toString(), "--launcher-jar", fake.toString(),
                "--agent-jar", "none");
    }

    @Test
    void sweepRefusesFewerThanFiveRunsWithoutAReason() throws IOException {
        List<String> args = new java.util.ArrayList<>(fakeJars());
        args.addAll(List.of("--repeats", "3", "--calibrated", "none"));
        BenchResult bad = bench(java.util.stream.Stream.concat(Stream.of("sweep"), args.stream()).toArray(String[]::new));
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("--repeats 3 is below the method's 5 runs per cell: say why with --repeats-reason"
                + " TEXT (the results print it)"), bad.err());
        args.set(args.indexOf("3"), "0");
        bad = bench(java.util.stream.Stream.concat(Stream.of("sweep"), args.stream()).toArray(String[]::new));
        assertTrue(bad.err().contains("--repeats must be at least 1, got 0"), bad.err());
        assertFalse(Files.exists(tmp.resolve("benchmarks/results")), "nothing ran");
    }

    @Test
    void sweepTakesTheCalibratedSettingsUnderItsOwnOptions() throws IOException {
        Path file = tmp.resolve("cal.json");
        Calibration.of("now", List.of(new Calibration.Trial("60", "heap", List.of("--threads", "60", "--session-kb",
                "450", "--scale", "0.5"), 2, 20, 0, false, 0, true))).write(file);
        SweepCommand sweep = SweepCommand.parse(List.of("--threads", "90", "--calibrated", file.toString()));
        assertEquals(file, sweep.calibrationFile(tmp, false));
        SweepOptions o = sweep.effectiveOptions(file, List.of("baseline", "heap"));
        assertEquals(90, o.threads, "the command line wins");
        assertEquals(450, o.sessionKb, "the calibration fills in the rest");
        assertEquals(0.5, o.scale);
        assertEquals(null, SweepCommand.parse(List.of("--calibrated", "none")).calibrationFile(tmp, false));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SweepCommand.parse(List.of("--calibrated", tmp.resolve("absent.json").toString()))
                        .calibrationFile(tmp, false));
        assertTrue(e.getMessage().contains("does not exist (run 'bench calibrate', or pass --calibrated none)"),
                e.getMessage());
    }

    @Test
    void vcn3QueueDefaultsToTheSeedsAndRefusesAnythingButSeedOrHalf() throws IOException {
        assertEquals("seed", SweepCommand.parse(List.of()).options.vcn3Queue);
        assertEquals("half", SweepCommand.parse(List.of("--vcn3-queue", "half")).options.vcn3Queue);
        CalibrateCommand calibrate = new CalibrateCommand();
        Cli.parse(Cli.configure(new CommandLine(calibrate)), "--vcn3-queue=half", "--scenarios", "http-threads");
        assertEquals(List.of("--vcn3-queue", "half"), calibrate.sweepArguments(), "calibrate passes it on");
        List<String> args = new java.util.ArrayList<>(List.of("sweep", "--vcn3-queue", "third", "--calibrated", "none"));
        args.addAll(fakeJars());
        BenchResult bad = bench(args.toArray(String[]::new));
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("--vcn3-queue: 'third' is neither seed nor half"), bad.err());
        assertFalse(Files.exists(tmp.resolve("benchmarks/results")), "nothing ran");
    }

    @Test
    void jdbcHoldAndWaitDefaultToTodaysAndAreCheckedBeforeAnythingRuns() throws IOException {
        SweepOptions defaults = SweepCommand.parse(List.of()).options;
        assertEquals(0, defaults.jdbcHoldMs);
        assertEquals(10_000, defaults.jdbcMaxWaitMs);
        SweepOptions given = SweepCommand.parse(List.of("--jdbc-hold-ms", "300", "--jdbc-max-wait-ms", "450")).options;
        assertEquals(300, given.jdbcHoldMs);
        assertEquals(450, given.jdbcMaxWaitMs);
        for (List<String> bad : List.of(List.of("--jdbc-hold-ms", "-1"), List.of("--jdbc-max-wait-ms", "0"))) {
            List<String> args = new java.util.ArrayList<>(List.of("sweep", "--calibrated", "none"));
            args.addAll(bad);
            args.addAll(fakeJars());
            BenchResult result = bench(args.toArray(String[]::new));
            assertEquals(2, result.code(), result.err());
            assertTrue(result.err().contains(bad.get(0) + " must"), result.err());
        }
        assertFalse(Files.exists(tmp.resolve("benchmarks/results")), "nothing ran");
    }

    @Test
    void aCalibratedVcn3QueueReachesTheSweep() throws IOException {
        Path file = tmp.resolve("cal.json");
        Calibration.of("now", List.of(new Calibration.Trial("half", "http-threads", List.of("--threads", "60",
                "--vcn3-queue", "half"), 2, 20, 0, false, 0, true))).write(file);
        SweepCommand sweep = SweepCommand.parse(List.of("--calibrated", file.toString()));
        assertEquals("half", sweep.effectiveOptions(file, List.of("http-threads")).vcn3Queue);
        SweepCommand overridden = SweepCommand.parse(List.of("--calibrated", file.toString(), "--vcn3-queue", "seed"));
        assertEquals("seed", overridden.effectiveOptions(file, List.of("http-threads")).vcn3Queue,
                "the command line wins");
    }

    @Test
    void sweepReadsTheDefaultCalibrationWhenOneWasRecorded() throws IOException {
        SweepCommand sweep = SweepCommand.parse(List.of());
        assertEquals(null, sweep.calibrationFile(tmp, false), "none recorded");
        Path file = tmp.resolve(SweepCommand.DEFAULT_CALIBRATION);
        Calibration.of("now", List.of()).write(file);
        assertEquals(file, sweep.calibrationFile(tmp, false));
        assertEquals(null, sweep.calibrationFile(tmp, true), "a --quick smoke run ignores it");
    }
}
