package io.loadwise.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The jakarta agent JAR the build put in {@code node-agent/jakarta/target}, for the ITs that start real nodes. */
final class BuiltAgentJar {

    private BuiltAgentJar() {
    }

    /** The repository root: {@code -Dloadwise.root}, else two levels up from this module. */
    static Path repositoryRoot() {
        return Path.of(System.getProperty("loadwise.root", "../..")).toAbsolutePath().normalize();
    }

    /** @throws IOException when the agent module has not been packaged yet */
    static Path find() throws IOException {
        Path agentDir = repositoryRoot().resolve("node-agent/jakarta/target");
        try (var files = Files.list(agentDir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("loadwise-agent-jakarta-")
                            && p.getFileName().toString().endsWith(".jar")).findFirst()
                    .orElseThrow(() -> new IOException("no loadwise-agent-jakarta-*.jar in " + agentDir));
        }
    }
}
