package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.console.client.DrainCommand;
import io.loadwise.dispatcher.cli.Main;
import io.loadwise.dispatcher.config.DrainMode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code loadwise drain} against a running dispatcher's admin API. */
class DrainCommandTest extends ApiTestBase {

    private record Run(int code, String out, String err) {
    }

    private Run drain(Map<String, String> env, String... args) {
        List<String> all = new ArrayList<>(List.of("--admin-url", "http://127.0.0.1:" + plane.port(), "--poll-ms", "20"));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.runCommand(new DrainCommand(), all.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                env);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Run drain(String... args) {
        return drain(Map.of("LOADWISE_ADMIN_TOKEN", TOKEN), args);
    }

    @Test
    void waitsUntilASessionDrainedNodeIsDrainedAndPrintsProgress() {
        Run run = drain("--cluster", "web", "--node", "n1", "--wait", "--session-idle-ms", "300");
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().startsWith("cluster web node n1: drain started (sessions)\n"), run.out());
        assertTrue(run.out().contains("node n1: draining (sessions): sessions unknown (no agent), 0 pinned requests in "
                + "the last minute, 0 in flight"), run.out());
        assertTrue(run.out().endsWith("node n1 is drained\n"), run.out());
        assertEquals(DrainMode.SESSIONS, control.cluster("web").node("n1").drainMode());
    }

    @Test
    void aSecondDrainOfAnotherModeSwitchesAndSaysSoAndNoneEndsIt() {
        assertEquals(0, drain("--cluster", "web", "--node", "n1", "--mode", "immediate").code());
        Run switched = drain("--cluster", "web", "--node", "n1", "--mode", "sessions", "--deadline-ms", "600000");
        assertEquals(0, switched.code(), switched.err());
        assertTrue(switched.out().startsWith("cluster web node n1: switched from immediate to sessions\n"), switched.out());
        Run immediate = drain("--cluster", "web", "--node", "n1", "--mode", "immediate", "--wait");
        assertEquals(0, immediate.code(), immediate.err());
        assertTrue(immediate.out().contains("node n1: drained (immediate): 0 in flight"), immediate.out());
        Run ended = drain("--cluster", "web", "--node", "n1", "--mode", "none");
        assertTrue(ended.out().startsWith("cluster web node n1: drain ended (was immediate)\n"), ended.out());
        assertEquals(DrainMode.NONE, control.cluster("web").node("n1").drainMode());
    }

    @Test
    void aPassedDeadlineExitsNonZero() {
        Run run = drain("--cluster", "web", "--node", "n2", "--wait", "--deadline-ms", "50");
        assertEquals(1, run.code(), run.out() + run.err());
        assertTrue(run.err().contains("node n2: the deadline passed before its sessions ended"), run.err());
    }

    @Test
    void anUnknownNodeIs404AndBadOptionsAreUsageErrors() {
        Run unknown = drain("--cluster", "web", "--node", "n9");
        assertEquals(1, unknown.code());
        assertTrue(unknown.err().contains("HTTP 404: cluster 'web' has no node named 'n9'"), unknown.err());
        Run mode = drain("--cluster", "web", "--node", "n1", "--mode", "soft");
        assertEquals(2, mode.code());
        assertTrue(mode.err().contains("--mode: 'soft' is not sessions, immediate or none"), mode.err());
        assertTrue(drain("--cluster", "web", "--node", "n1", "--mode", "immediate", "--deadline-ms", "5").err()
                .contains("--deadline-ms: only with --mode sessions"));
        assertEquals(2, drain(Map.of(), "--cluster", "web", "--node", "n1").code(), "no token");
        Run wrongToken = drain(Map.of("LOADWISE_ADMIN_TOKEN", "not-the-token-0123456789"), "--cluster", "web",
                "--node", "n1");
        assertEquals(1, wrongToken.code());
        assertTrue(wrongToken.err().contains("HTTP 401"), wrongToken.err());
        assertEquals(DrainMode.NONE, control.cluster("web").node("n1").drainMode());
    }
}
