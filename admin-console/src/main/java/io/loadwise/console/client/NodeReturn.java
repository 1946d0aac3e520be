package io.loadwise.console.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * Whether a restarted node is back, judged from its status in the admin API after the restart command ended:
 * its address accepts connections, the dispatcher counts it healthy and not waiting for its application, its
 * agent (if it had reported before) has reported since, and its health check (if it has one) has passed since.
 */
final class NodeReturn {

    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

    private NodeReturn() {
    }

    /** Whether its agent has ever reported: then the rollout waits for a report after the restart too. */
    static boolean hasAgent(JsonNode status) {
        return status.path("agent").path("lastSampleAgeMs").isNumber();
    }

    /**
     * What still keeps the node from counting as back, or {@code null} when it is back.
     *
     * @param sinceMillis how long ago (ms) the restart command ended
     * @param commandEndedAt wall clock when it ended (epoch ms), for the health check's timestamp
     */
    static String missing(JsonNode status, boolean hadAgent, long sinceMillis, long commandEndedAt) {
        String address = status.path("address").asText();
        if (!accepts(address)) {
            return "its address " + address + " does not accept connections";
        }
        if (status.path("awaitingReadiness").asBoolean()) {
            return "the dispatcher waits for its application to answer";
        }
        if (!status.path("healthy").asBoolean()) {
            return "the dispatcher does not count it healthy";
        }
        JsonNode agent = status.path("agent");
        if (hadAgent && !("ok".equals(agent.path("state").asText())
                && agent.path("lastSampleAgeMs").isNumber() && agent.path("lastSampleAgeMs").asLong() < sinceMillis)) {
            return "its agent has not reported since the restart";
        }
        JsonNode health = status.path("health");
        if (health.path("checked").asBoolean()) {
            JsonNode last = health.path("lastCheck");
            if (!last.path("ok").asBoolean() || last.path("timestampMillis").asLong() < commandEndedAt) {
                return "no health check has passed since the restart";
            }
        }
        return null;
    }

    private static boolean accepts(String address) {
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            return false;
        }
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, Integer.parseInt(address.substring(colon + 1))),
                    CONNECT_TIMEOUT_MILLIS);
            return true;
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }
}
