package io.loadwise.node.glassfish;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * An unpacked GlassFish 7 distribution (the {@code glassfish7} directory of the zip) and the JDK that
 * runs both asadmin and the servers it starts.
 *
 * @param home     the {@code glassfish7} directory
 * @param javaHome the JDK; exported to asadmin as {@code AS_JAVA}
 */
public record GlassFishInstallation(Path home, Path javaHome) {

    /** System property naming the {@code glassfish7} directory; the module's build sets it for its tests. */
    public static final String HOME_PROPERTY = "loadwise.glassfish.home";

    public GlassFishInstallation {
        Objects.requireNonNull(home, "home");
        Objects.requireNonNull(javaHome, "javaHome");
        home = home.toAbsolutePath().normalize();
        if (!Files.isRegularFile(home.resolve(CLI_JAR))) {
            throw new IllegalArgumentException("not a GlassFish 7 installation: " + home + " has no " + CLI_JAR
                    + " (point " + HOME_PROPERTY + " at the glassfish7 directory of the distribution zip)");
        }
        if (!Files.isExecutable(javaHome.resolve("bin/java"))) {
            throw new IllegalArgumentException("not a JDK: " + javaHome + " has no executable bin/java");
        }
    }

    private static final String CLI_JAR = "glassfish/lib/client/appserver-cli.jar";

    /** The installation named by {@value #HOME_PROPERTY}, run by the JDK running this JVM. */
    public static GlassFishInstallation fromSystemProperty() {
        String home = System.getProperty(HOME_PROPERTY);
        if (home == null || home.isBlank()) {
            throw new IllegalStateException("system property " + HOME_PROPERTY + " is not set: it must name the"
                    + " glassfish7 directory of an unpacked GlassFish 7 distribution");
        }
        return new GlassFishInstallation(Path.of(home), Path.of(System.getProperty("java.home")));
    }

    /** The jar that {@code bin/asadmin} runs; starting it directly needs neither a shell nor exec bits. */
    public Path cliJar() {
        return home.resolve(CLI_JAR);
    }

    public Path javaExecutable() {
        return javaHome.resolve("bin/java");
    }
}
