package io.loadwise.console.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadwise.cli.HelpOption;
import io.loadwise.cli.UsageException;
import io.loadwise.console.client.AdminClient.AdminCallException;
import io.loadwise.dispatcher.cli.CliCommand;
import io.loadwise.dispatcher.config.DrainMode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code loadwise rollout --cluster C [--nodes a,b] --restart-command '…'}: a rolling restart through the admin
 * API, one node at a time ({@link Rollout}); this class reads the options, the cluster's nodes and the state
 * file, and prints the plan ({@code --dry-run}).
 */
@Command(name = "rollout",
        description = {"Restart a cluster's nodes one at a time without logging users out (admin API).",
            "For each node in turn: drain sessions, wait until drained, run --restart-command (env LOADWISE_NODE, "
                + "LOADWISE_NODE_ADDRESS, LOADWISE_NODE_HOST, LOADWISE_NODE_PORT, LOADWISE_CLUSTER), wait until the "
                + "node accepts connections, is healthy and its agent (if it has one) reports again, undrain, "
                + "wait for slow start; then the next node.",
            "It stops, leaving the rest untouched and the failed node drained, when the command fails, exits "
                + "non-zero or outlasts --command-timeout-ms, when a node is not back within --node-timeout-ms, or "
                + "when the cluster's failure rate since the start passes --max-failure-percent. The state file "
                + "records the nodes done; --resume goes on from it."},
        footer = {"Example:",
            "  loadwise rollout -c loadwise.json --cluster shop --restart-command 'ssh $LOADWISE_NODE_HOST "
                + "sudo systemctl restart tomcat' --drain-deadline-ms 3600000",
            "Exit codes: 0 every node restarted (or --dry-run), 1 stopped (the message names the node and why), "
                + "2 usage error."})
public final class RolloutCommand implements CliCommand {

    @Option(names = "--cluster", required = true, paramLabel = "C", description = "the cluster")
    String cluster;

    @Option(names = "--nodes", split = ",", paramLabel = "NODE",
            description = "the nodes to restart, in this order (default: every node, in configuration order)")
    List<String> nodes;

    @Option(names = "--restart-command", required = true, paramLabel = "CMD",
            description = "run by /bin/sh -c for each node; must exit 0 once the restart has begun or ended")
    String restartCommand;

    @Option(names = "--dry-run", description = "print what would be done, change nothing")
    boolean dryRun;

    @Option(names = "--node-timeout-ms", paramLabel = "MS", defaultValue = "600000",
            description = "how long a node may take to come back, and to end its slow start (default 600000)")
    long nodeTimeoutMs;

    @Option(names = "--command-timeout-ms", paramLabel = "MS",
            description = "how long the restart command may run before it is killed (default: --node-timeout-ms)")
    Long commandTimeoutMs;

    @Option(names = "--max-failure-percent", paramLabel = "P", defaultValue = "1",
            description = "stop once this share of the cluster's requests since the start failed (default 1)")
    double maxFailurePercent;

    @Option(names = "--drain-mode", paramLabel = "MODE", defaultValue = "sessions",
            description = "sessions (default), or immediate (\"drain\": true: sessions on the node are lost; "
                    + "for comparison)")
    String drainMode;

    @Option(names = "--drain-deadline-ms", paramLabel = "MS",
            description = "the longest session drain; after it the node's sessions left are lost (default: none)")
    Long drainDeadlineMs;

    @Option(names = "--session-idle-ms", paramLabel = "MS",
            description = "nodes without an agent: drained once no pinned request came for this long (default 30 min)")
    Long sessionIdleMs;

    @Option(names = "--state-file", paramLabel = "FILE",
            description = "where the nodes done are recorded (default: rollout-<cluster>.json here)")
    Path stateFile;

    @Option(names = "--resume", description = "go on from the state file, skipping the nodes it records as done")
    boolean resume;

    @Option(names = "--poll-ms", paramLabel = "MS", defaultValue = "1000",
            description = "how often to ask the admin API while waiting (default 1000)")
    long pollMs;

    @Mixin
    AdminOptions admin;

    @Mixin
    HelpOption help;

    @Override
    public int run(PrintStream out, PrintStream err, Map<String, String> env) {
        checkOptions();
        Path state = stateFile != null ? stateFile : Path.of("rollout-" + cluster.replaceAll("[^A-Za-z0-9._-]", "_")
                + ".json");
        AdminClient client = admin.client(env);
        try {
            Map<String, String> plan = plan(client.cluster(cluster));
            RolloutState recorded;
            if (resume) {
                if (!Files.exists(state)) {
                    throw new UsageException("--resume: no state file " + state);
                }
                recorded = RolloutState.read(state, cluster);
            } else {
                if (Files.exists(state) && !dryRun) {
                    throw new UsageException("state file " + state + " is there from an earlier rollout: --resume to "
                            + "go on from it, or remove it");
                }
                recorded = RolloutState.fresh(state, cluster);
            }
            if (dryRun) {
                printPlan(out, plan, recorded);
                return 0;
            }
            Rollout.Settings settings = new Rollout.Settings(restartCommand, DrainCommand.mode(drainMode), nodeTimeoutMs,
                    commandTimeoutMs != null ? commandTimeoutMs : nodeTimeoutMs, maxFailurePercent,
                    drainDeadlineMs == null ? 0 : drainDeadlineMs, sessionIdleMs, pollMs);
            return new Rollout(client, cluster, settings, recorded, out, err).run(plan);
        } catch (AdminCallException | IOException e) {
            err.println("loadwise rollout: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("loadwise rollout: interrupted");
            return 1;
        }
    }

    private void checkOptions() {
        DrainMode mode;
        try {
            mode = DrainCommand.mode(drainMode);
        } catch (UsageException e) {
            throw new UsageException("--drain-mode: " + e.getMessage());
        }
        if (mode == DrainMode.NONE) {
            throw new UsageException("--drain-mode: 'none' is not sessions or immediate");
        }
        if (mode != DrainMode.SESSIONS
                && (drainDeadlineMs != null || sessionIdleMs != null)) {
            throw new UsageException((drainDeadlineMs != null ? "--drain-deadline-ms" : "--session-idle-ms")
                    + ": only with --drain-mode sessions");
        }
        if (restartCommand.isBlank()) {
            throw new UsageException("--restart-command: empty");
        }
        positive("--node-timeout-ms", nodeTimeoutMs);
        positive("--poll-ms", pollMs);
        if (commandTimeoutMs != null) {
            positive("--command-timeout-ms", commandTimeoutMs);
        }
        if (drainDeadlineMs != null) {
            positive("--drain-deadline-ms", drainDeadlineMs);
        }
        if (sessionIdleMs != null) {
            positive("--session-idle-ms", sessionIdleMs);
        }
        if (!(maxFailurePercent >= 0 && maxFailurePercent <= 100)) {
            throw new UsageException("--max-failure-percent: " + maxFailurePercent + " is not between 0 and 100");
        }
        if (nodes != null) {
            for (String n : nodes) {
                if (n.isBlank()) {
                    throw new UsageException("--nodes: an empty node name in '" + String.join(",", nodes) + "'");
                }
                if (nodes.indexOf(n) != nodes.lastIndexOf(n)) {
                    throw new UsageException("--nodes: '" + n + "' is named twice");
                }
            }
        }
    }

    private static void positive(String option, long value) {
        if (value < 1) {
            throw new UsageException(option + ": " + value + " must be at least 1");
        }
    }

    /** Node name to address, in rollout order; every name of {@code --nodes} must be in the cluster. */
    private Map<String, String> plan(JsonNode view) {
        Map<String, String> all = new LinkedHashMap<>();
        for (JsonNode n : view.path("nodes")) {
            all.put(n.path("name").asText(), n.path("address").asText());
        }
        if (nodes == null) {
            return all;
        }
        Map<String, String> chosen = new LinkedHashMap<>();
        List<String> unknown = new ArrayList<>();
        for (String n : nodes) {
            if (all.containsKey(n)) {
                chosen.put(n, all.get(n));
            } else {
                unknown.add(n);
            }
        }
        if (!unknown.isEmpty()) {
            throw new UsageException("--nodes: cluster '" + cluster + "' has no node named " + String.join(", ", unknown));
        }
        return chosen;
    }

    private void printPlan(PrintStream out, Map<String, String> plan, RolloutState recorded) {
        out.println("rollout of cluster " + cluster + " (dry run: nothing is changed)");
        int i = 0;
        for (Map.Entry<String, String> node : plan.entrySet()) {
            String step = "[" + ++i + "/" + plan.size() + "] node " + node.getKey() + " (" + node.getValue() + "): ";
            if (recorded.done(node.getKey())) {
                out.println(step + "done in an earlier run, skipped");
                continue;
            }
            out.println(step + "drain " + drainMode + (drainDeadlineMs == null ? "" : " (deadline " + drainDeadlineMs
                    + " ms)") + ", wait until drained");
            out.println(step + "run: " + restartCommand + "   with " + RestartRun.environment(cluster,
                    node.getKey(), node.getValue()) + ", at most " + (commandTimeoutMs != null ? commandTimeoutMs
                    : nodeTimeoutMs) + " ms");
            out.println(step + "wait until it is back (at most " + nodeTimeoutMs + " ms), undrain, wait for slow start");
        }
        out.println("stops if the cluster's failure rate passes " + maxFailurePercent + "%");
    }
}
