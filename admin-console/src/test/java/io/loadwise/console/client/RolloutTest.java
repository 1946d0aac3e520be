package io.loadwise.console.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadwise.dispatcher.cli.Main;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.console.ConsoleControlPlane;
import io.loadwise.policy.PolicyRegistry;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loadwise rollout} over three real node processes ({@link SessionNode}, sessions in memory, no
 * replication) behind a real dispatcher: the restart command really stops and starts each node's JVM, and
 * users with sticky sessions ({@link SessionUsers}) keep working throughout without one failed request or one
 * logout. And the ways it stops: a failing or hanging command, named; then {@code --resume}.
 */
class RolloutTest {

    private static final String TOKEN = "rollout-test-token-3c7e91d2";
    private static final List<String> NODES = List.of("r1", "r2", "r3");

    @TempDir
    Path dir;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final List<Process> firstRuns = new ArrayList<>();
    private Transport transport;
    private Dispatcher dispatcher;
    private String adminUrl;
    private Path restartScript;

    @BeforeEach
    void start() throws Exception {
        for (String node : NODES) {
            int port = freePort();
            ports.put(node, port);
            firstRuns.add(launch(node, port));
        }
        StringBuilder nodes = new StringBuilder();
        for (String node : NODES) {
            nodes.append(nodes.length() == 0 ? "" : ",").append("{\"name\": \"").append(node)
                    .append("\", \"address\": \"127.0.0.1:").append(ports.get(node)).append("\", \"route\": \"")
                    .append(node).append("\"}");
        }
        Path config = dir.resolve("loadwise.json");
        Files.writeString(config, """
                {"admin": {"listen": "127.0.0.1:0", "token": "%s", "dataDir": "%s"},
                 "clusters": [{"name": "shop", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                               "affinity": "cookie", "agentPollIntervalMs": 100, "agentReprobeMs": 500,
                               "unhealthyRetryMs": 300, "nodes": [%s]}]}
                """.formatted(TOKEN, dir.resolve("data").toString().replace("\\", "/"), nodes));
        PolicyRegistry policies = PolicyRegistry.load();
        LoadwiseConfig loaded = ConfigLoader.load(config);
        new ConfigValidator(policies).check(loaded);
        transport = new Transport(1);
        dispatcher = new Dispatcher(loaded, new ConfigStore(config), policies, transport, new ModeListenerFactory());
        dispatcher.start(TOKEN, true);
        adminUrl = "http://127.0.0.1:" + ((ConsoleControlPlane) dispatcher.controlPlane()).port();
        restartScript = dir.resolve("restart.sh");
        Files.writeString(restartScript, """
                pidfile="%1$s/$LOADWISE_NODE.pid"
                pid=$(cat "$pidfile") || exit 4
                kill "$pid"
                # gone, or a zombie nobody has reaped yet
                while [ -e /proc/$pid ] && [ "$(awk '{print $3}' /proc/$pid/stat 2>/dev/null)" != Z ]; do sleep 0.05; done
                echo "$LOADWISE_NODE_ADDRESS" >> "%1$s/$LOADWISE_NODE.restarts"
                nohup '%2$s' -cp '%3$s' %4$s --port "$LOADWISE_NODE_PORT" --route "$LOADWISE_NODE" \\
                    --pid-file "$pidfile" > "%1$s/$LOADWISE_NODE.log" 2>&1 &
                """.formatted(dir, javaBin(), System.getProperty("java.class.path"), SessionNode.class.getName()));
    }

    @AfterEach
    void stop() throws IOException {
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
        for (String node : NODES) {
            Path pid = dir.resolve(node + ".pid");
            if (Files.exists(pid)) {
                ProcessHandle.of(Long.parseLong(Files.readString(pid).strip())).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
        firstRuns.forEach(Process::destroyForcibly);
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Starts a node and returns once it serves (it prints "listening"). */
    private Process launch(String node, int port) throws IOException {
        Process p = new ProcessBuilder(javaBin(), "-cp", System.getProperty("java.class.path"),
                SessionNode.class.getName(), "--port", Integer.toString(port), "--route", node, "--pid-file",
                dir.resolve(node + ".pid").toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertEquals("listening " + port, line, "node " + node + " did not start");
        return p;
    }

    private record Run(int code, String out, String err) {
    }

    private Run rollout(String... extra) {
        List<String> args = new ArrayList<>(List.of("--admin-url", adminUrl, "--cluster", "shop", "--state-file",
                dir.resolve("state.json").toString(), "--poll-ms", "50", "--node-timeout-ms", "60000"));
        args.addAll(List.of(extra));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.runCommand(new RolloutCommand(), args.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of("LOADWISE_ADMIN_TOKEN", TOKEN));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private int restarts(String node) throws IOException {
        Path file = dir.resolve(node + ".restarts");
        return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    }

    private JsonNode state() throws IOException {
        return AdminClient.json().readTree(Files.readString(dir.resolve("state.json")));
    }

    @Test
    void aRollingRestartLosesNoRequestAndLogsNobodyOut() throws Exception {
        Run run;
        SessionUsers.Tally tally;
        try (SessionUsers users = SessionUsers.start(dispatcher.boundAddress("shop"), 4)) {
            users.awaitRequests(200); // every node has sessions before the first drain
            run = rollout("--restart-command", "sh " + restartScript, "--max-failure-percent", "0");
            users.awaitRequests(users.tally().requests() + 200); // and traffic on the restarted nodes after
            tally = users.stop();
        }
        assertEquals(0, run.code(), run.out() + run.err());
        for (String node : NODES) {
            assertEquals(1, restarts(node), "node " + node + " restarted once\n" + run.out());
            assertFalse(dispatcher.cluster("shop").node(node).draining(), node + " undrained");
        }
        assertTrue(run.out().contains("[1/3] node r1: drained"), run.out());
        assertTrue(run.out().contains("node r1: draining (sessions): "), run.out());
        assertTrue(run.out().contains("[3/3] node r3: done"), run.out());
        assertTrue(run.out().contains("rollout of cluster shop done: 3 nodes restarted"), run.out());
        assertEquals(List.of(), tally.failures(), "failed requests during the rollout");
        assertEquals(0, tally.loggedOut(), "users logged out");
        assertTrue(tally.requests() > 400, "requests: " + tally.requests());
        assertTrue(tally.logins() > 3, "logins: " + tally.logins());
        assertEquals("[\"r1\",\"r2\",\"r3\"]", state().path("done").toString());
    }

    /** The control: the same rollout with today's {@code "drain": true} logs out the users of each node. */
    @Test
    void withAnImmediateDrainTheUsersOfEachRestartedNodeAreLoggedOut() throws Exception {
        Run run;
        SessionUsers.Tally tally;
        try (SessionUsers users = SessionUsers.start(dispatcher.boundAddress("shop"), 4)) {
            users.awaitRequests(200);
            run = rollout("--restart-command", "sh " + restartScript, "--drain-mode", "immediate");
            tally = users.stop();
        }
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("[1/3] node r1: drain immediate: drain started (immediate)"), run.out());
        assertTrue(tally.loggedOut() > 0, "an immediate drain moves pinned users to nodes without their session: "
                + tally);
    }

    @Test
    void aFailingCommandStopsAtItsNodeAndResumeGoesOnFromThere() throws Exception {
        Run failed = rollout("--nodes", "r2,r1,r3", "--restart-command", "exit 3");
        assertEquals(1, failed.code(), failed.out() + failed.err());
        assertTrue(failed.err().contains("stopped at node r2: the restart command exited with status 3"), failed.err());
        assertTrue(failed.err().contains("untouched: r1, r3"), failed.err());
        assertEquals(DrainMode.SESSIONS, dispatcher.cluster("shop").node("r2").drainMode(), "left drained");
        assertEquals(DrainMode.NONE, dispatcher.cluster("shop").node("r1").drainMode());
        assertEquals(DrainMode.NONE, dispatcher.cluster("shop").node("r3").drainMode());
        assertEquals("r2", state().path("stoppedAt").asText());
        assertEquals("the restart command exited with status 3", state().path("reason").asText());

        Run again = rollout("--nodes", "r2,r1,r3", "--restart-command", "sh " + restartScript);
        assertEquals(2, again.code(), "an existing state file needs --resume\n" + again.err());
        assertTrue(again.err().contains("is there from an earlier rollout: --resume to go on from it"), again.err());

        Run resumed = rollout("--nodes", "r2,r1,r3", "--restart-command", "sh " + restartScript, "--resume",
                "--max-failure-percent", "0");
        assertEquals(0, resumed.code(), resumed.out() + resumed.err());
        assertEquals(List.of(1, 1, 1), List.of(restarts("r1"), restarts("r2"), restarts("r3")));
        assertEquals("[\"r2\",\"r1\",\"r3\"]", state().path("done").toString());
        assertTrue(state().path("stoppedAt").isMissingNode());

        Run nothingLeft = rollout("--restart-command", "sh " + restartScript, "--resume");
        assertEquals(0, nothingLeft.code(), nothingLeft.err());
        assertTrue(nothingLeft.out().contains("[1/3] node r1: done in an earlier run, skipped"), nothingLeft.out());
        assertEquals(1, restarts("r1"));
    }

    @Test
    void aHangingCommandIsKilledAndNamed() throws Exception {
        Run run = rollout("--nodes", "r3", "--restart-command", "sleep 30", "--command-timeout-ms", "300");
        assertEquals(1, run.code(), run.out() + run.err());
        assertTrue(run.err().contains("stopped at node r3: the restart command did not end within 300 ms (killed)"),
                run.err());
    }

    @Test
    void aNodeThatDoesNotComeBackStopsTheRollout() throws Exception {
        Run run = rollout("--nodes", "r1,r2", "--restart-command", "kill $(cat " + dir + "/$LOADWISE_NODE.pid)",
                "--node-timeout-ms", "1000");
        assertEquals(1, run.code(), run.out() + run.err());
        assertTrue(run.err().contains("stopped at node r1: not back within 1000 ms: its address 127.0.0.1:"
                + ports.get("r1") + " does not accept connections"), run.err());
        assertTrue(run.err().contains("untouched: r2"), run.err());
        assertEquals(DrainMode.NONE, dispatcher.cluster("shop").node("r2").drainMode());
    }

    @Test
    void dryRunPrintsThePlanAndChangesNothing() throws Exception {
        Run run = rollout("--nodes", "r3,r1", "--restart-command", "systemctl restart tomcat", "--dry-run");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("[1/2] node r3 (127.0.0.1:" + ports.get("r3") + "): drain sessions"), run.out());
        assertTrue(run.out().contains("run: systemctl restart tomcat"), run.out());
        assertTrue(run.out().contains("LOADWISE_NODE=r1"), run.out());
        assertFalse(Files.exists(dir.resolve("state.json")));
        for (String node : NODES) {
            assertFalse(dispatcher.cluster("shop").node(node).draining());
        }
    }

    @Test
    void badOptionsAreUsageErrorsNamingTheOption() {
        assertEquals(2, rollout("--nodes", "r1,nope", "--restart-command", "true").code());
        assertTrue(rollout("--nodes", "r1,nope", "--restart-command", "true").err()
                .contains("--nodes: cluster 'shop' has no node named nope"));
        assertTrue(rollout("--nodes", "r1,r1", "--restart-command", "true").err().contains("--nodes: 'r1' is named twice"));
        assertTrue(rollout("--restart-command", " ").err().contains("--restart-command: empty"));
        assertTrue(rollout("--restart-command", "true", "--max-failure-percent", "101").err()
                .contains("--max-failure-percent: 101.0 is not between 0 and 100"));
        assertTrue(rollout("--restart-command", "true", "--node-timeout-ms", "0").err()
                .contains("--node-timeout-ms: 0 must be at least 1"));
        assertTrue(rollout("--restart-command", "true", "--resume").err().contains("--resume: no state file"));
        assertTrue(rollout("--restart-command", "true", "--drain-mode", "none").err()
                .contains("--drain-mode: 'none' is not sessions or immediate"));
        assertTrue(rollout("--restart-command", "true", "--drain-mode", "immediate", "--drain-deadline-ms", "5").err()
                .contains("--drain-deadline-ms: only with --drain-mode sessions"));
        Run noToken = new Run(Main.runCommand(new RolloutCommand(), new String[] {"--cluster", "shop",
                "--restart-command", "true", "--admin-url", adminUrl}, System.out, System.err, Map.of()), "", "");
        assertEquals(2, noToken.code());
    }
}
