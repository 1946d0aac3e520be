package io.loadwise.console.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A rollout's state file: the cluster, the nodes already restarted, and where and why it stopped. Written after
 * each node (to a temporary file, then moved over), so {@code --resume} goes on after the last node done.
 *
 * <pre>{"cluster": "shop", "done": ["a", "b"], "stoppedAt": "c", "reason": "..."}</pre>
 */
final class RolloutState {

    private final Path file;
    private final String cluster;
    private final Set<String> done = new LinkedHashSet<>();
    private String stoppedAt;
    private String reason;

    private RolloutState(Path file, String cluster) {
        this.file = file;
        this.cluster = cluster;
    }

    static RolloutState fresh(Path file, String cluster) {
        return new RolloutState(file, cluster);
    }

    /** Reads the file; the message of the exception names the file and what is wrong with it. */
    static RolloutState read(Path file, String cluster) throws IOException {
        JsonNode json;
        try {
            json = AdminClient.json().readTree(Files.readString(file));
        } catch (IOException e) {
            throw new IOException(file + ": cannot read the rollout state: " + e.getMessage(), e);
        }
        if (json == null || !json.isObject() || !json.path("done").isArray() || !json.path("cluster").isTextual()) {
            throw new IOException(file + ": not a rollout state file (expected {\"cluster\": ..., \"done\": [...]})");
        }
        if (!json.path("cluster").asText().equals(cluster)) {
            throw new IOException(file + ": the state of a rollout of cluster '" + json.path("cluster").asText()
                    + "', not of '" + cluster + "'");
        }
        RolloutState state = new RolloutState(file, cluster);
        for (JsonNode name : json.path("done")) {
            if (!name.isTextual()) {
                throw new IOException(file + ": done: expected node names, got " + name);
            }
            state.done.add(name.asText());
        }
        return state;
    }

    boolean done(String node) {
        return done.contains(node);
    }

    List<String> doneNodes() {
        return new ArrayList<>(done);
    }

    void markDone(String node) throws IOException {
        done.add(node);
        stoppedAt = null;
        reason = null;
        write();
    }

    void markStopped(String node, String why) throws IOException {
        stoppedAt = node;
        reason = why;
        write();
    }

    private void write() throws IOException {
        ObjectNode json = AdminClient.json().createObjectNode().put("cluster", cluster);
        ArrayNode names = json.putArray("done");
        done.forEach(names::add);
        if (stoppedAt != null) {
            json.put("stoppedAt", stoppedAt).put("reason", reason);
        }
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".rollout", ".tmp");
        Files.writeString(tmp, AdminClient.json().writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n");
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
