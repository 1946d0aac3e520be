package io.loadwise.bench;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the programs a sweep starts live, by default relative to the repository root. */
record Locations(Path root, Path dispatcherJar, Path launcherJar, Path agentJar, Path jmeterHome) {

    /** The repository {@code root} and the programs in it, each overridable ({@code null}: its place in the build). */
    static Locations from(Path root, Path dispatcherJar, Path launcherJar, Path jmeterHome) {
        Path at = (root != null ? root : defaultRoot()).toAbsolutePath().normalize();
        Path dispatcher = dispatcherJar != null ? dispatcherJar : at.resolve("admin-console/target/loadwise.jar");
        Path launcher = launcherJar != null ? launcherJar
                : at.resolve("benchmarks/node-launcher/target/loadwise-node-launcher.jar");
        Path jmeter = jmeterHome != null ? jmeterHome : at.resolve("benchmarks/jmeter/target/jmeter");
        Path agent = at.resolve("node-agent/jakarta/target/loadwise-agent-jakarta-0.1.0-SNAPSHOT.jar");
        require(dispatcher, "the dispatcher jar (mvn -B -q -DskipTests package, or --dispatcher-jar)");
        require(launcher, "the node launcher jar (mvn -B -q -DskipTests package, or --launcher-jar)");
        return new Locations(at, dispatcher, launcher, agent, jmeter);
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
