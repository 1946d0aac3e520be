package io.loadwise.node.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reads the bits of the dispatcher's REST answers the demo prints. */
final class DemoJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private DemoJson() {
    }

    /** {@code VCN1=12 VCN2=10 VCN3=0} from {@code GET /api/clusters/{name}}. */
    static String selectionsByNode(String clusterJson) {
        try {
            StringBuilder line = new StringBuilder();
            for (JsonNode node : JSON.readTree(clusterJson).path("nodes")) {
                if (!line.isEmpty()) {
                    line.append(' ');
                }
                line.append(node.path("name").asText()).append('=').append(node.path("selections").asLong());
                if (!node.path("healthy").asBoolean(true)) {
                    line.append("(down)");
                }
            }
            return line.toString();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreadable cluster JSON: " + e.getMessage(), e);
        }
    }

    /** Names of the nodes that have no agent sample younger than {@code maxAgeMs}; empty when all report. */
    static java.util.List<String> nodesWithoutFreshMetrics(String clusterJson, long maxAgeMs) {
        try {
            java.util.List<String> missing = new java.util.ArrayList<>();
            for (JsonNode node : JSON.readTree(clusterJson).path("nodes")) {
                JsonNode agent = node.path("agent");
                if (agent.isMissingNode() || agent.isNull() || agent.path("ageMs").asLong(Long.MAX_VALUE) > maxAgeMs) {
                    missing.add(node.path("name").asText());
                }
            }
            return missing;
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreadable cluster JSON: " + e.getMessage(), e);
        }
    }
}
