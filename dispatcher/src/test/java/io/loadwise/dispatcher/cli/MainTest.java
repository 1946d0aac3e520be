package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(Map<String, String> env, String... args) {
        return new Main(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                env).execute(args);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private Path write(String json) throws Exception {
        Path file = dir.resolve("loadwise.json");
        Files.writeString(file, json.replace('\'', '"'));
        return file;
    }

    private static final String GOOD = "{'admin':{'token':'test-token-0123456789'},'clusters':["
            + "{'name':'a','mode':'tcp','listen':'127.0.0.1:0','policy':'test-round-robin','nodes':[{'name':'n1','address':'127.0.0.1:9001'}]},"
            + "{'name':'b','mode':'tcp','listen':'127.0.0.1:0','policy':'test-round-robin','nodes':[{'name':'n1','address':'127.0.0.1:9002'}]}]}";

    @Test
    void validateAcceptsAGoodFile() throws Exception {
        Path file = write(GOOD);
        assertEquals(Main.OK, run(Map.of(), "validate", "--config", file.toString()));
        assertEquals("config OK: 2 clusters\n", out());
        assertEquals("", err());
    }

    @Test
    void validateListsEveryProblemAndFails() throws Exception {
        Path file = write("{'clusters':[{'name':'a','mode':'tcp','listen':'127.0.0.1:0','policy':'test-round-robin',"
                + "'nodes':[{'name':'n1','address':'h:99999','weight':0}]}]}");
        assertEquals(Main.INVALID, run(Map.of(), "validate", "--config=" + file));
        assertEquals(file + ": clusters[0].nodes[0].address: port 99999 out of range\n"
                + file + ": clusters[0].nodes[0].weight: 0 out of range 1..1000\n"
                + file + ": admin.token: missing; set admin.token in the configuration file or the LOADWISE_ADMIN_TOKEN"
                + " environment variable (there is no default token)\n", err());
        assertEquals("", out());
    }

    @Test
    void theEnvironmentTokenSatisfiesValidation() throws Exception {
        Path file = write(GOOD.replace("'admin':{'token':'test-token-0123456789'},", ""));
        assertEquals(Main.INVALID, run(Map.of(), "validate", "--config", file.toString()));
        assertEquals(Main.OK, run(Map.of("LOADWISE_ADMIN_TOKEN", "env-token-0123456789"), "validate", "--config", file.toString()));
    }

    @Test
    void validateNamesATooShortTokenWhereverItComesFrom() throws Exception {
        Path file = write(GOOD.replace("test-token-0123456789", "short-token"));
        assertEquals(Main.INVALID, run(Map.of(), "validate", "--config", file.toString()));
        assertEquals(file + ": admin.token: too short (11 characters); an admin token needs at least 16 characters, "
                + "for example the output of `openssl rand -hex 24`\n", err());
        err.reset();
        Path withoutToken = write(GOOD.replace("'admin':{'token':'test-token-0123456789'},", ""));
        assertEquals(Main.INVALID, run(Map.of("LOADWISE_ADMIN_TOKEN", "t0k3n"), "validate", "--config", withoutToken.toString()));
        assertEquals(withoutToken + ": LOADWISE_ADMIN_TOKEN: too short (5 characters); an admin token needs at least 16 "
                + "characters, for example the output of `openssl rand -hex 24`\n", err());
        err.reset();
        assertEquals(Main.INVALID, run(Map.of("LOADWISE_ADMIN_TOKEN", "t0k3n"), "run", "--config", withoutToken.toString()));
        assertTrue(err().contains("LOADWISE_ADMIN_TOKEN: too short (5 characters)"), err());
        assertTrue(err().endsWith("loadwise run: not started, the configuration is invalid\n"), err());
    }

    @Test
    void anAgentSecretInTheEnvironmentThatCannotBeSentStopsValidateAndRunWithoutBeingPrinted() throws Exception {
        Path file = write(GOOD);
        Map<String, String> env = Map.of("LOADWISE_AGENT_SECRET", "hunter2\r\nX-Injected: 1");
        assertEquals(Main.INVALID, run(env, "validate", "--config", file.toString()));
        assertEquals(file + ": LOADWISE_AGENT_SECRET: character 8 is not allowed: a secret is sent in an HTTP "
                + "header, so it may hold only visible ASCII characters (letters, digits, punctuation; no spaces or "
                + "control characters)\n", err());
        err.reset();
        assertEquals(Main.INVALID, run(env, "run", "--config", file.toString()));
        assertTrue(err().endsWith("loadwise run: not started, the configuration is invalid\n"), err());
        assertFalse(err().contains("hunter2"), err());
        assertEquals(Main.OK, run(Map.of("LOADWISE_AGENT_SECRET", "hunter2-but-longer\n"), "validate", "--config",
                file.toString()));
    }

    @Test
    void validateReportsParseErrors() throws Exception {
        Path file = write("{'clusters':[{'nmae':'a'}]}");
        assertEquals(Main.INVALID, run(Map.of(), "validate", "--config", file.toString()));
        assertEquals(file + ": clusters[0].nmae: unknown field\n", err());
    }

    @Test
    void runRefusesAnInvalidFileWithoutStarting() throws Exception {
        Path file = write("{'clusters':[{'name':'a'}]}");
        assertEquals(Main.INVALID, run(Map.of(), "run", "--config", file.toString(), "--log-level", "debug"));
        assertTrue(err().contains(file + ": clusters[0].mode: missing (tcp or http)\n"), err());
        assertTrue(err().endsWith("loadwise run: not started, the configuration is invalid\n"), err());
    }

    @Test
    void usageErrors() {
        assertEquals(Main.USAGE, run(Map.of(), "validate"));
        assertEquals("loadwise validate: --config FILE is required; see loadwise validate --help\n", err());
        err.reset();
        assertEquals(Main.USAGE, run(Map.of(), "run", "--config", "x.json", "--log-level", "chatty"));
        assertTrue(err().contains("--log-level 'chatty' unknown"), err());
        err.reset();
        assertEquals(Main.USAGE, run(Map.of(), "frobnicate"));
        assertEquals("loadwise: unknown command 'frobnicate'; see loadwise --help\n", err());
        err.reset();
        assertEquals(Main.USAGE, run(Map.of(), "simulate"));
        assertTrue(err().contains("handled by") || err().contains("launcher"), err());
    }

    @Test
    void helpListsEveryCommandAndVersionPrintsOne() {
        assertEquals(Main.OK, run(Map.of(), "--help"));
        for (String command : new String[] {"run", "validate", "demo", "bench", "simulate", "capacity", "passwd",
                "--version", "LOADWISE_ADMIN_TOKEN"}) {
            assertTrue(out().contains(command), command);
        }
        out.reset();
        assertEquals(Main.OK, run(Map.of(), "--version"));
        assertTrue(out().matches("loadwise \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\n"), out());
        out.reset();
        assertEquals(Main.USAGE, run(Map.of()));
        assertTrue(out().startsWith("Loadwise"));
    }

    @Test
    void modulesContributeCommands() {
        assertEquals(Main.OK, run(Map.of(), "greet", "world"));
        assertEquals("hello world\n", out());
        assertEquals(Main.USAGE, run(Map.of(), "greet"));
        out.reset();
        run(Map.of(), "--help");
        assertTrue(out().matches("(?s).*\n  passwd +Set the admin console password.*\n  greet +Say hello \\(test extension\\)\\.\n"
                + "  completion .*"), out());
        out.reset();
        assertEquals(Main.OK, run(Map.of(), "greet", "--help"), "a contributed command gets --help without declaring it");
        assertTrue(out().startsWith("Usage: loadwise greet [-h] [NAME...]\n\nSay hello (test extension).\n"), out());
    }

    @Test
    void everyCommandAnswersHelpAndTheHelpCommandGivesTheSameText() {
        for (String command : List.of("run", "validate", "demo", "bench", "simulate", "capacity", "passwd", "completion",
                "greet")) {
            out.reset();
            assertEquals(Main.OK, run(Map.of(), command, "--help"), command);
            String help = out();
            assertTrue(help.startsWith("Usage: loadwise " + command + " [-h]"), help);
            out.reset();
            assertEquals(Main.OK, run(Map.of(), command, "-h"), command);
            assertEquals(help, out());
            out.reset();
            assertEquals(Main.OK, run(Map.of(), "help", command));
            assertEquals(help, out());
        }
        assertEquals("", err());
    }

    @Test
    void runHelpListsItsOptionsWithTheWorkerThreads() {
        assertEquals(Main.OK, run(Map.of(), "run", "--help"));
        for (String text : List.of("-c, --config=FILE", "--log-level=LEVEL", "--worker-threads=N", "1..1024",
                "overrides workerThreads in FILE (default: one per core)", "LOADWISE_ADMIN_TOKEN", "Exit codes:")) {
            assertTrue(out().contains(text), text + " in " + out());
        }
    }

    @Test
    void runHelpListsTheTransports() {
        assertEquals(Main.OK, run(Map.of(), "run", "--help"));
        for (String text : List.of("--transport=KIND", "auto, io_uring, epoll or nio", "overrides transport in FILE",
                "(default auto: epoll when available, else nio)")) {
            assertTrue(out().contains(text), text + " in " + out());
        }
    }

    @Test
    void anUnknownTransportIsAUsageError() {
        assertEquals(Main.USAGE, run(Map.of(), "run", "--config", "missing.json", "--transport", "uring"));
        assertTrue(err().contains("--transport 'uring' unknown, expected one of auto, io_uring, epoll, nio"), err());
    }

    @Test
    void workerThreadsOutOfRangeIsAUsageError() {
        assertEquals(Main.USAGE, run(Map.of(), "run", "--config", "missing.json", "--worker-threads", "0"));
        assertEquals("loadwise run: --worker-threads 0 out of range 1..1024; see loadwise run --help\n", err());
        err.reset();
        assertEquals(Main.USAGE, run(Map.of(), "run", "--config", "missing.json", "--worker-threads", "1025"));
        assertEquals("loadwise run: --worker-threads 1025 out of range 1..1024; see loadwise run --help\n", err());
        err.reset();
        assertEquals(Main.USAGE, run(Map.of(), "run", "--config", "missing.json", "--worker-threads=two"));
        assertEquals("loadwise run: --worker-threads needs an integer, got 'two'; see loadwise run --help\n", err());
    }

    @Test
    void aMisspeltOptionIsNamedRatherThanTheRequiredOptionItHides() {
        assertEquals(Main.USAGE, run(Map.of(), "validate", "--confg", "x.json"));
        assertEquals("loadwise validate: unknown option '--confg'; see loadwise validate --help\n", err());
        err.reset();
        assertEquals(Main.USAGE, run(Map.of(), "validate", "--config"));
        assertEquals("loadwise validate: --config needs a value; see loadwise validate --help\n", err());
    }

    @Test
    void launcherCommandsTakeTheOtherProgramsOptionsAndSayWhereItIs() {
        assertEquals(Main.USAGE, run(Map.of(), "simulate", "--rate", "100", "--policy", "jvm-aware"));
        assertEquals("loadwise: 'simulate' is not run by this jar; the ./loadwise launcher runs it from "
                + "benchmarks/simulator (./loadwise simulate --help shows its options)\n", err());
        assertEquals("", out());
    }

    @Test
    void theVersionAlsoAnswersTheWordAndTheShortOption() {
        assertEquals(Main.OK, run(Map.of(), "version"));
        String version = out();
        assertTrue(version.matches("loadwise \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\n"), version);
        out.reset();
        assertEquals(Main.OK, run(Map.of(), "-V"));
        assertEquals(version, out());
    }
}
