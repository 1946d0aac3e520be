package io.loadwise.node.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The dispatcher configuration of the demo: one HTTP cluster over the three nodes, session affinity on
 * their Tomcat routes (the trade app keeps per-user sessions), and the agent endpoint inside the trade
 * app. The token is not written: the dispatcher gets it through {@code LOADWISE_ADMIN_TOKEN}.
 */
final class DemoConfig {

    static final String CLUSTER = "demo";

    private DemoConfig() {
    }

    static Path write(Path file, DemoOptions options, List<String> nodeNames) throws IOException {
        StringBuilder nodes = new StringBuilder();
        for (int i = 0; i < nodeNames.size(); i++) {
            String name = nodeNames.get(i);
            nodes.append(i == 0 ? "" : ",\n")
                    .append("        { \"name\": \"").append(name).append("\", \"address\": \"127.0.0.1:")
                    .append(options.nodePorts().get(i)).append("\", \"route\": \"").append(name).append("\" }");
        }
        String json = """
                {
                  "admin": { "listen": "127.0.0.1:%d", "dataDir": "%s" },
                  "logging": { "level": "info", "file": "%s", "accessLog": "%s" },
                  "clusters": [
                    { "name": "%s", "mode": "http", "listen": "127.0.0.1:%d", "policy": "%s",
                      "affinity": "cookie",
                      "agentPath": "/trade/loadwise-agent/metrics",
                      "nodes": [
                %s
                      ] }
                  ]
                }
                """.formatted(options.adminPort(), jsonPath(file.getParent().resolve("console")),
                jsonPath(file.getParent().resolve("logs/loadwise.log")),
                jsonPath(file.getParent().resolve("logs/access.log")), CLUSTER, options.dispatcherPort(),
                options.policy(), nodes);
        Files.createDirectories(file.getParent());
        Files.writeString(file, json, StandardCharsets.UTF_8);
        return file;
    }

    private static String jsonPath(Path path) {
        return path.toAbsolutePath().toString().replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
