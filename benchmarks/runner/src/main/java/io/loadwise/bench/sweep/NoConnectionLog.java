package io.loadwise.bench.sweep;

import io.loadwise.bench.provision.BackendNode;
import io.loadwise.bench.provision.ClusterProvisioner.ProvisionedCluster;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Requests a node answered 503 because its JDBC pool had no connection for them within its longest wait
 * ({@code --jdbc-max-wait-ms}), counted in the node's log. The dispatcher relays a node's own error answers and
 * counts them as completed, so without this an exhausted pool would fail JMeter's samples on no node.
 */
final class NoConnectionLog {

    /** What the trade app's ScenarioServlet writes, once per such request (its NO_CONNECTION_LOG). */
    static final String MARKER = "503 no JDBC connection";

    private NoConnectionLog() {
    }

    /** Per node name, the marked lines in its log; 0 where the log is unknown or absent. */
    static Map<String, Long> countPerNode(ProvisionedCluster cluster, List<BackendNode> nodes) throws IOException {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (BackendNode node : nodes) {
            counts.put(node.name(), count(cluster.logFile(node)));
        }
        return counts;
    }

    static long count(Path log) throws IOException {
        if (log == null || !Files.isRegularFile(log)) {
            return 0;
        }
        long lines = 0;
        // the log may hold bytes that are not UTF-8 (a JVM's own messages): decode leniently
        try (BufferedReader in = new BufferedReader(new java.io.InputStreamReader(Files.newInputStream(log),
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPLACE)
                        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPLACE)))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.contains(MARKER)) {
                    lines++;
                }
            }
        }
        return lines;
    }
}
