package io.loadwise.bench;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the programs a sweep starts live, by default relative to the repository root. */
record Locations(Path root, Path dispatcherJar, Path launcherJar, Path agentJar, Path jmeterHome) {

    static Locations from(Options o) {
        Path root = Path.of(o.get("root", defaultRoot().toString())).toAbsolutePath().normalize();
        Path dispatcher = Path.of(o.get("dispatcher-jar", root.resolve("admin-console/target/loadwise.jar").toString()));
        Path launcher = Path.of(o.get("launcher-jar",
                root.resolve("benchmarks/node-launcher/target/loadwise-node-launcher.jar").toString()));
        Path jmeter = Path.of(o.get("jmeter-home", root.resolve("benchmarks/jmeter/target/jmeter").toString()));
        Path agent = root.resolve("node-agent/jakarta/target/loadwise-agent-jakarta-0.1.0-SNAPSHOT.jar");
        require(dispatcher, "the dispatcher jar (mvn -B -q -DskipTests package, or --dispatcher-jar)");
        require(launcher, "the node launcher jar (mvn -B -q -DskipTests package, or --launcher-jar)");
        return new Locations(root, dispatcher, launcher, agent, jmeter);
    }

    private static void require(Path file, String what) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + " does not exist: " + what);
        }
    }

    /** The repository root: three levels above this jar ({@code benchmarks/runner/target/}), else the working directory. */
    static Path defaultRoot() {
        try {
            Path code = Path.of(Locations.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path candidate = code.getParent() == null ? null : code.getParent().getParent();
            while (candidate != null) {
                if (Files.isDirectory(candidate.resolve("benchmarks").resolve("runner"))) {
                    return candidate;
                }
                candidate = candidate.getParent();
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall back to the working directory
        }
        return Path.of("").toAbsolutePath();
    }
}
