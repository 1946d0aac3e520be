package io.loadwise.console.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.cli.HelpOption;
import io.loadwise.cli.UsageException;
import io.loadwise.console.client.AdminClient.AdminCallException;
import io.loadwise.dispatcher.cli.CliCommand;
import io.loadwise.dispatcher.config.DrainMode;
import java.io.PrintStream;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code loadwise drain --cluster C --node N [--mode sessions|immediate|none] [--wait] [--deadline-ms N]}: drains a
 * node of a running dispatcher through its admin API and, with {@code --wait}, waits until it is drained.
 */
@Command(name = "drain",
        description = {"Drain a node of a running dispatcher (admin API), optionally waiting until it is drained.",
            "--mode sessions (the default) takes no new session and no unpinned request but keeps the requests "
                + "pinned to the node (JSESSIONID route, affinity cookie) until its agent reports no active "
                + "session, or, without an agent, no pinned request has come for --session-idle-ms. "
                + "--mode immediate is \"drain\": true: no new work at all. --mode none ends a drain.",
            "A second drain of another mode switches modes and says so."},
        footer = {"Examples:",
            "  LOADWISE_ADMIN_TOKEN=... loadwise drain --cluster shop --node tomcat2 --wait --deadline-ms 3600000",
            "  loadwise drain -c loadwise.json --cluster shop --node tomcat2 --mode none",
            "Exit codes: 0 drained (with --wait) or drain set, 1 the deadline passed, the node is no longer "
                + "draining, or the admin API refused or failed, 2 usage error."})
public final class DrainCommand implements CliCommand {

    @Option(names = "--cluster", required = true, paramLabel = "C", description = "the cluster")
    String cluster;

    @Option(names = "--node", required = true, paramLabel = "N", description = "the node")
    String node;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "sessions",
            description = "sessions (default), immediate or none (ends a drain)")
    String mode;

    @Option(names = "--wait", description = "wait until the node is drained (or its deadline passes), printing progress")
    boolean await;

    @Option(names = "--deadline-ms", paramLabel = "MS",
            description = "sessions: the longest wait; after it the node drains as immediate (default: none)")
    Long deadlineMs;

    @Option(names = "--session-idle-ms", paramLabel = "MS",
            description = "sessions, without an agent: drained once no pinned request came for this long "
                    + "(default 1800000, 30 min)")
    Long sessionIdleMs;

    @Option(names = "--poll-ms", paramLabel = "MS", defaultValue = "1000",
            description = "with --wait: how often to ask the admin API (default 1000)")
    long pollMs;

    @Mixin
    AdminOptions admin;

    @Mixin
    HelpOption help;

    @Override
    public int run(PrintStream out, PrintStream err, Map<String, String> env) {
        DrainMode drain;
        try {
            drain = mode(mode);
        } catch (UsageException e) {
            throw new UsageException("--mode: " + e.getMessage());
        }
        if (drain != DrainMode.SESSIONS && (deadlineMs != null || sessionIdleMs != null)) {
            throw new UsageException((deadlineMs != null ? "--deadline-ms" : "--session-idle-ms")
                    + ": only with --mode sessions");
        }
        if (pollMs < 1) {
            throw new UsageException("--poll-ms: " + pollMs + " must be at least 1");
        }
        AdminClient client = admin.client(env);
        try {
            ObjectNode body = AdminClient.json().createObjectNode().putPOJO("drain", drain.json());
            if (deadlineMs != null) {
                body.put("deadlineMs", deadlineMs);
            }
            if (sessionIdleMs != null) {
                body.put("sessionIdleMs", sessionIdleMs);
            }
            var answer = client.updateNode(cluster, node, body);
            out.println("cluster " + cluster + " node " + node + ": " + answer.path("drainChange").asText());
            if (!await || drain == DrainMode.NONE) {
                out.println(DrainWatch.progress(node, answer));
                return 0;
            }
            DrainWatch.Outcome outcome = new DrainWatch(client, out, pollMs).await(cluster, node);
            switch (outcome) {
                case DRAINED:
                    out.println("node " + node + " is drained");
                    return 0;
                case DEADLINE_PASSED:
                    err.println("loadwise drain: node " + node + ": the deadline passed before its sessions ended;"
                            + " it now drains as immediate");
                    return 1;
                default:
                    err.println("loadwise drain: node " + node + " is no longer draining (undrained meanwhile?)");
                    return 1;
            }
        } catch (AdminCallException e) {
            err.println("loadwise drain: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("loadwise drain: interrupted");
            return 1;
        }
    }

    static DrainMode mode(String text) {
        return switch (text) {
            case "sessions" -> DrainMode.SESSIONS;
            case "immediate" -> DrainMode.IMMEDIATE;
            case "none" -> DrainMode.NONE;
            default -> throw new UsageException("'" + text + "' is not sessions, immediate or none");
        };
    }
}
