package io.loadwise.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./loadwise} launcher's staleness check: its {@code stale} function, run through bash on a copy
 * of the real script and {@code .gitignore} in a scratch tree with one module and its jar. Run-time data
 * written after the build (the demo's exploded WARs under {@code data/demo/} carry pom.xml files) must not
 * make the jar stale; a changed or new source file must.
 */
class LauncherStalenessTest {

    private static final Instant SOURCES = Instant.now().minus(3, ChronoUnit.HOURS);
    private static final Instant BUILT = SOURCES.plus(1, ChronoUnit.HOURS);
    private static final Instant LATER = BUILT.plus(1, ChronoUnit.HOURS);

    @TempDir
    Path tree;

    private Path jar;

    @BeforeEach
    void moduleBuiltAfterItsSources() throws IOException {
        Path root = Locations.defaultRoot();
        Files.copy(root.resolve("loadwise"), tree.resolve("loadwise"), StandardCopyOption.COPY_ATTRIBUTES);
        Files.copy(root.resolve(".gitignore"), tree.resolve(".gitignore"));
        write("pom.xml", SOURCES);
        write("m/pom.xml", SOURCES);
        write("m/src/main/java/A.java", SOURCES);
        jar = write("m/target/app.jar", BUILT);
    }

    @Test
    void runTimeDataIsNotABuildInputInAGitCheckout() throws Exception {
        bash("git init -q .");
        writeRunTimeData();
        assertEquals("fresh", stale());
        write("m/src/main/resources/debug.log", LATER); // *.log is ignored
        write("m/.idea/src/x.xml", LATER); // .idea/ is ignored
        assertEquals("fresh", stale());
        write("m/src/main/java/B.java", LATER); // new, not yet added: still a source
        assertEquals("stale", stale());
    }

    @Test
    void runTimeDataIsNotABuildInputWithoutGit() throws Exception {
        writeRunTimeData();
        assertEquals("fresh", stale());
        touch("m/src/main/java/A.java", LATER);
        assertEquals("stale", stale());
    }

    @Test
    void aChangedPomMakesTheJarStale() throws Exception {
        bash("git init -q .");
        assertEquals("fresh", stale());
        touch("m/pom.xml", LATER);
        assertEquals("stale", stale());
    }

    /** What ./loadwise demo, the benchmarks and the fuzzer leave behind, all newer than the jar. */
    private void writeRunTimeData() throws IOException {
        write("data/demo/nodes/VCN1/webapps/ROOT/META-INF/maven/io.loadwise/trade-app/pom.xml", LATER);
        write("data/demo/nodes/VCN1/webapps/ROOT/WEB-INF/src/Main.java", LATER);
        write("logs/src/loadwise.txt", LATER);
        write("benchmarks/results/2026-01-01-sweep/src/pom.xml", LATER);
        write("m/target/fuzz/.cifuzz-corpus/src/pom.xml", LATER);
    }

    private Path write(String relative, Instant modified) throws IOException {
        Path file = tree.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, relative);
        return touch(relative, modified);
    }

    private Path touch(String relative, Instant modified) throws IOException {
        return Files.setLastModifiedTime(tree.resolve(relative), FileTime.from(modified));
    }

    /** "stale" or "fresh", as the launcher's own function says for the jar. */
    private String stale() throws Exception {
        return bash("source ./loadwise; if stale \"$1\"; then echo stale; else echo fresh; fi", jar.toString());
    }

    private String bash(String script, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("bash", "-c", script, "bash"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(tree.toFile()).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("GIT_"));
        Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "bash did not finish: " + script);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
