package io.loadwise.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options of the benches that run the shipped jar as a process ({@code chaos}, {@code soak}): which jar and
 * which checkout the results go to.
 */
final class ShippedJar {

    @Option(names = "--dispatcher-jar", paramLabel = "JAR", description = "the dispatcher to test (default: admin-console/target/loadwise.jar)")
    Path dispatcherJar;

    @Option(names = "--root", paramLabel = "DIR", description = "the repository (default: the one this jar was built in)")
    Path root;

    /** The checkout, absolute. */
    Path root() {
        return (root != null ? root : Locations.defaultRoot()).toAbsolutePath().normalize();
    }

    /** The jar to run; a usage error that says how to build it when it is missing. */
    Path jar() {
        Path jar = dispatcherJar != null ? dispatcherJar.toAbsolutePath() : root().resolve("admin-console/target/loadwise.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException(jar + " does not exist: build it (mvn -B -q -DskipTests package) or give"
                    + " --dispatcher-jar");
        }
        return jar;
    }
}
