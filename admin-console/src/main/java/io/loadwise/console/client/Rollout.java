package io.loadwise.console.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.console.client.AdminClient.AdminCallException;
import io.loadwise.dispatcher.config.DrainMode;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One rolling restart, node after node: drain sessions, wait until drained, run the restart command, wait until
 * the node is back ({@link NodeReturn}), undrain, wait for slow start. Any failure stops it there, naming the
 * node; the nodes after it are left untouched and the state file says where it stopped.
 */
final class Rollout {

    /** What the options say. */
    record Settings(String command, DrainMode drainMode, long nodeTimeoutMs, long commandTimeoutMs, double maxFailurePercent,
            long drainDeadlineMs, Long sessionIdleMs, long pollMs) {
    }

    /** Why the rollout stopped at a node. */
    private static final class Stop extends Exception {
        private static final long serialVersionUID = 1L;

        Stop(String message) {
            super(message);
        }
    }

    private final AdminClient admin;
    private final String cluster;
    private final Settings settings;
    private final RolloutState state;
    private final PrintStream out;
    private final PrintStream err;
    private long requestsAtStart;
    private long failuresAtStart;

    Rollout(AdminClient admin, String cluster, Settings settings, RolloutState state, PrintStream out,
            PrintStream err) {
        this.admin = admin;
        this.cluster = cluster;
        this.settings = settings;
        this.state = state;
        this.out = out;
        this.err = err;
    }

    /** Returns the exit code: 0 when every node of {@code plan} is done, 1 when it stopped. */
    int run(Map<String, String> plan) throws AdminCallException, IOException, InterruptedException {
        long[] totals = totals(admin.cluster(cluster));
        requestsAtStart = totals[0];
        failuresAtStart = totals[1];
        List<String> names = new ArrayList<>(plan.keySet());
        out.println("rollout of cluster " + cluster + ": " + names.size() + " nodes, " + state.doneNodes().size()
                + " already done");
        for (int i = 0; i < names.size(); i++) {
            String node = names.get(i);
            String step = "[" + (i + 1) + "/" + names.size() + "] node " + node + ": ";
            if (state.done(node)) {
                out.println(step + "done in an earlier run, skipped");
                continue;
            }
            try {
                restart(step, node, plan.get(node));
            } catch (Stop e) {
                state.markStopped(node, e.getMessage());
                List<String> untouched = names.subList(i + 1, names.size()).stream().filter(n -> !state.done(n))
                        .toList();
                err.println("loadwise rollout: stopped at node " + node + ": " + e.getMessage());
                err.println("loadwise rollout: node " + node + " is left as it is (drained if it was); untouched: "
                        + (untouched.isEmpty() ? "none" : String.join(", ", untouched))
                        + "; run again with --resume once it is fixed");
                return 1;
            }
            state.markDone(node);
            out.println(step + "done");
        }
        out.println("rollout of cluster " + cluster + " done: " + names.size() + " nodes restarted");
        return 0;
    }

    private void restart(String step, String node, String address)
            throws Stop, AdminCallException, InterruptedException {
        requireAnotherInService(node);
        ObjectNode drain = AdminClient.json().createObjectNode().putPOJO("drain", settings.drainMode().json());
        if (settings.drainDeadlineMs() > 0) {
            drain.put("deadlineMs", settings.drainDeadlineMs());
        }
        if (settings.sessionIdleMs() != null) {
            drain.put("sessionIdleMs", settings.sessionIdleMs());
        }
        out.println(step + "drain " + settings.drainMode().id() + ": " + admin.updateNode(cluster, node, drain).path("drainChange").asText());
        switch (new DrainWatch(admin, out, settings.pollMs()).await(cluster, node)) {
            case DRAINED -> out.println(step + "drained");
            case DEADLINE_PASSED -> out.println(step + "the drain deadline passed: the sessions left on it are lost");
            default -> throw new Stop("it stopped draining while the rollout waited (undrained by someone?)");
        }
        checkFailureRate();
        boolean hadAgent = NodeReturn.hasAgent(admin.node(cluster, node));
        out.println(step + "run: " + settings.command());
        String failed = RestartRun.run(settings.command(), RestartRun.environment(cluster, node, address),
                settings.commandTimeoutMs());
        if (failed != null) {
            throw new Stop(failed);
        }
        long endedAt = System.currentTimeMillis();
        long endedNanos = System.nanoTime();
        out.println(step + "restart command done; waiting until it is back" + (hadAgent ? " and its agent reports" : ""));
        String missing = "";
        while (true) {
            long since = (System.nanoTime() - endedNanos) / 1_000_000;
            missing = NodeReturn.missing(admin.node(cluster, node), hadAgent, since, endedAt);
            if (missing == null) {
                break;
            }
            if (since >= settings.nodeTimeoutMs()) {
                throw new Stop("not back within " + settings.nodeTimeoutMs() + " ms: " + missing);
            }
            Thread.sleep(settings.pollMs()); // the poll interval of a command-line wait
        }
        out.println(step + "back; undrain: " + admin.updateNode(cluster, node,
                AdminClient.json().createObjectNode().put("drain", false)).path("drainChange").asText());
        awaitSlowStart(step, node);
        checkFailureRate();
    }

    /** Draining the only node in service would leave the cluster without one. */
    private void requireAnotherInService(String node) throws Stop, AdminCallException {
        for (JsonNode n : admin.cluster(cluster).path("nodes")) {
            if (!n.path("name").asText().equals(node) && n.path("enabled").asBoolean()
                    && !n.path("draining").asBoolean() && n.path("healthy").asBoolean()) {
                return;
            }
        }
        throw new Stop("no other node of the cluster is in service: draining it would leave none");
    }

    private void awaitSlowStart(String step, String node) throws Stop, AdminCallException, InterruptedException {
        long start = System.nanoTime();
        boolean said = false;
        while (true) {
            double share = admin.node(cluster, node).path("slowStartShare").asDouble(1);
            if (share >= 1) {
                if (said) {
                    out.println(step + "slow start over");
                }
                return;
            }
            if (!said) {
                out.println(step + "slow start: " + Math.round(share * 100) + "% of its share so far");
                said = true;
            }
            if ((System.nanoTime() - start) / 1_000_000 >= settings.nodeTimeoutMs()) {
                throw new Stop("slow start not over within " + settings.nodeTimeoutMs() + " ms");
            }
            Thread.sleep(settings.pollMs());
        }
    }

    private void checkFailureRate() throws Stop, AdminCallException {
        long[] totals = totals(admin.cluster(cluster));
        long requests = totals[0] - requestsAtStart;
        long failures = totals[1] - failuresAtStart;
        if (requests > 0 && failures * 100.0 / requests > settings.maxFailurePercent()) {
            throw new Stop(String.format(java.util.Locale.ROOT, "the cluster's failure rate since the start is "
                    + "%.2f%% (%d of %d requests), above --max-failure-percent %s", failures * 100.0 / requests,
                    failures, requests, settings.maxFailurePercent()));
        }
    }

    /** Requests and failures of every node of the cluster since the dispatcher started. */
    private static long[] totals(JsonNode view) {
        long requests = 0;
        long failures = 0;
        for (JsonNode n : view.path("nodes")) {
            requests += n.path("requests").asLong();
            failures += n.path("failures").asLong();
        }
        return new long[] {requests, failures};
    }
}
