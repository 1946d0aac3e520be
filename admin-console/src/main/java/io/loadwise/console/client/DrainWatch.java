package io.loadwise.console.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadwise.console.client.AdminClient.AdminCallException;
import java.io.PrintStream;

/**
 * Polls one draining node until its drain ends: drained, its deadline passed, or it is no longer draining (an
 * operator undrained it). Prints a progress line whenever its state or the sessions left change, and at least
 * every {@value #QUIET_POLLS} polls.
 */
final class DrainWatch {

    /** How the wait ended. */
    enum Outcome {
        DRAINED, DEADLINE_PASSED, NOT_DRAINING
    }

    private static final int QUIET_POLLS = 30;

    private final AdminClient admin;
    private final PrintStream out;
    private final long pollMillis;

    DrainWatch(AdminClient admin, PrintStream out, long pollMillis) {
        this.admin = admin;
        this.out = out;
        this.pollMillis = pollMillis;
    }

    Outcome await(String cluster, String node) throws AdminCallException, InterruptedException {
        String last = null;
        int quiet = 0;
        while (true) {
            JsonNode status = admin.node(cluster, node);
            JsonNode drain = status.path("drain");
            String key = drain.path("state").asText() + " " + drain.path("mode").asText() + " "
                    + drain.path("sessionsLeft").asText();
            if (!key.equals(last) || ++quiet >= QUIET_POLLS) {
                out.println(progress(node, status));
                last = key;
                quiet = 0;
            }
            if (drain.isMissingNode() || drain.isNull()) {
                return Outcome.NOT_DRAINING;
            }
            switch (drain.path("state").asText()) {
                case "drained":
                    return Outcome.DRAINED;
                case "deadline-passed":
                    return Outcome.DEADLINE_PASSED;
                default:
                    Thread.sleep(pollMillis); // the poll interval of a command-line wait, not a test's
            }
        }
    }

    /** "node a: draining (sessions): 3 sessions left, 12 pinned requests in the last minute, 0 in flight". */
    static String progress(String node, JsonNode status) {
        JsonNode drain = status.path("drain");
        if (drain.isMissingNode() || drain.isNull()) {
            return "node " + node + ": not draining";
        }
        StringBuilder b = new StringBuilder("node ").append(node).append(": ").append(drain.path("state").asText())
                .append(" (").append(drain.path("mode").asText()).append("): ");
        if ("sessions".equals(drain.path("mode").asText())) {
            JsonNode left = drain.path("sessionsLeft");
            b.append(left.isNumber() ? left.asInt() + " sessions left" : "sessions unknown (no agent)").append(", ")
                    .append(drain.path("pinnedLastMinute").asInt()).append(" pinned requests in the last minute, ");
        }
        return b.append(drain.path("inFlightRequests").asInt()).append(" in flight").toString();
    }
}
