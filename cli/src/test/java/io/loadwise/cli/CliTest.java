package io.loadwise.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

class CliTest {

    @Command(name = "prog", versionProvider = Prog.Version.class, description = "A test program.")
    static final class Prog {
        @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print the version.")
        boolean version;
        @Mixin
        HelpOption help;

        static final class Version implements CommandLine.IVersionProvider {
            @Override
            public String[] getVersion() {
                return new String[] {"prog 1.2.3"};
            }
        }
    }

    @Command(name = "serve", description = "Serve 100 %% of the time.", footer = "Exit codes: 0 ok, 2 bad options.")
    static final class Serve {
        @Option(names = {"--config", "-c"}, paramLabel = "FILE", required = true, description = "the file")
        String config;
        @Option(names = "--threads", paramLabel = "N", description = "threads (default 1)")
        int threads = 1;
        @Option(names = "--rate", paramLabel = "REQ/S", description = "a rate")
        Double rate;
        @Option(names = "--dry-run", description = "do nothing")
        boolean dryRun;
        @Mixin
        HelpOption help;
    }

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private Serve served;

    private int run(String... args) {
        return run(chosen -> {
            served = chosen.getCommand();
            return ExitCode.OK;
        }, args);
    }

    private int run(Cli.Body body, String... args) {
        CommandLine top = new CommandLine(new Prog());
        top.addSubcommand(new Serve());
        top.addSubcommand(new HelpCommand());
        Cli.configure(top);
        return Cli.execute(top, args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), body);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void optionsReachTheChosenCommandInEitherSpelling() {
        assertEquals(ExitCode.OK, run("serve", "--config=a.json", "--threads", "4", "--rate", "-2.5", "--dry-run"));
        assertEquals("a.json", served.config);
        assertEquals(4, served.threads);
        assertEquals(-2.5, served.rate);
        assertTrue(served.dryRun);
        assertEquals("", err());
    }

    @Test
    void theLastValueWinsAsItDidBeforePicocli() {
        assertEquals(ExitCode.OK, run("serve", "-c", "a.json", "-c", "b.json"));
        assertEquals("b.json", served.config);
    }

    @Test
    void anArgumentStartingWithAtIsNotAFileToExpand() {
        assertEquals(ExitCode.OK, run("serve", "-c", "@no-such-file"));
        assertEquals("@no-such-file", served.config);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "frobnicate|prog: unknown command 'frobnicate'; see prog --help",
        "--bogus|prog: unknown option '--bogus'; see prog --help",
        "serve -c a --heap 5|prog serve: unknown option '--heap'; see prog serve --help",
        "serve -c a extra|prog serve: unexpected argument 'extra'; see prog serve --help",
        "serve|prog serve: --config FILE is required; see prog serve --help",
        "serve --confg a|prog serve: unknown option '--confg'; see prog serve --help",
        "serve -c a --threads|prog serve: --threads needs a value; see prog serve --help",
        "serve --rate --dry-run -c a|prog serve: --rate needs a value; see prog serve --help",
        "serve --threads -c a|prog serve: --threads needs a value; see prog serve --help",
        "serve --bogus --threads -c a|prog serve: unknown option '--bogus'; see prog serve --help",
        "serve -c a --threads many|prog serve: --threads needs an integer, got 'many'; see prog serve --help",
        "serve -c a --rate NaN|prog serve: --rate needs a number, got 'NaN'; see prog serve --help",
        "serve -c a --dry-run=maybe|prog serve: --dry-run 'maybe' is not a boolean; see prog serve --help",
        "help nope|prog: unknown command 'nope'; see prog --help"})
    void aBadCommandLineIsOneLineNamingTheOptionAndExitCode2(String args, String line) {
        assertEquals(ExitCode.USAGE, run(args.split(" ")));
        assertEquals(line + "\n", err());
        assertEquals("", out());
        assertEquals(null, served, "the command did not run");
    }

    @Test
    void theBodyReportsUsageErrorsTheSameWay() {
        assertEquals(ExitCode.USAGE, run(chosen -> {
            throw new UsageException("--rate: must be positive, got -1");
        }, "serve", "-c", "a"));
        assertEquals("prog serve: --rate: must be positive, got -1; see prog serve --help\n", err());
        err.reset();
        assertEquals(ExitCode.USAGE, run(chosen -> {
            throw new CommandLine.ParameterException(chosen, "--config: no such file");
        }, "serve", "-c", "a"));
        assertEquals("prog serve: --config: no such file; see prog serve --help\n", err());
    }

    @Test
    void helpIsAskedForWithEitherOptionOrTheHelpCommandAndWinsOverErrors() {
        assertEquals(ExitCode.OK, run("serve", "--help", "--confg"));
        String serveHelp = out();
        assertTrue(serveHelp.startsWith("Usage: prog serve [-h] -c=FILE [--threads=N] [--rate=REQ/S] [--dry-run]\n\n"
                + "Serve 100 % of the time.\n\nOptions:\n  -c, --config=FILE"), serveHelp);
        assertTrue(serveHelp.endsWith("  -h, --help          Show this help and exit.\n\nExit codes: 0 ok, 2 bad options.\n"),
                serveHelp);
        out.reset();
        assertEquals(ExitCode.OK, run("serve", "-h"));
        assertEquals(serveHelp, out());
        out.reset();
        assertEquals(ExitCode.OK, run("help", "serve"));
        assertEquals(serveHelp, out());
        out.reset();
        assertEquals(ExitCode.OK, run("help"));
        assertEquals("Usage: prog [-Vh] [COMMAND]\n\nA test program.\n\nCommands:\n  serve  Serve 100 % of the time.\n\n"
                + "Options:\n  -V, --version   Print the version.\n  -h, --help      Show this help and exit.\n", out(),
                "what a program does comes before how to tune it; no blank line for a missing footer");
        assertFalse(out().contains("  help "), "the help command is hidden: " + out());
        assertEquals("", err(), "no picocli warning about the format of a text");
    }

    @Test
    void parseAloneSetsTheValuesOrThrowsTheSameMessage() {
        Serve serve = new Serve();
        CommandLine command = Cli.configure(new CommandLine(serve));
        Cli.parse(command, "--config", "a.json", "--threads", "2");
        assertEquals("a.json", serve.config);
        assertEquals(2, serve.threads);
        UsageException e = org.junit.jupiter.api.Assertions.assertThrows(UsageException.class,
                () -> Cli.parse(Cli.configure(new CommandLine(new Serve())), "--threads", "x", "--config", "a.json"));
        assertEquals("--threads needs an integer, got 'x'", e.getMessage());
    }

    @Test
    void versionIsPrintedByTheTopCommand() {
        assertEquals(ExitCode.OK, run("--version"));
        assertEquals("prog 1.2.3\n", out());
        out.reset();
        assertEquals(ExitCode.OK, run("-V"));
        assertEquals("prog 1.2.3\n", out());
    }
}
