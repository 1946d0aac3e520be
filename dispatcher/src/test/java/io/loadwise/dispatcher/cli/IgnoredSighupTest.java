package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * A dispatcher started under {@code nohup} inherits SIGHUP ignored, and the JVM then installs no handler for it: a
 * {@code kill -HUP} does nothing. It must say so at start, not leave an operator waiting for a reload that never
 * comes. Real child JVMs, one started by a shell that ignores SIGHUP ({@code trap "" HUP}, what nohup does).
 */
class IgnoredSighupTest {

    @Test
    @EnabledOnOs(OS.LINUX)
    void aJvmStartedWithSighupIgnoredWarnsThatItCannotReloadBySignal() throws Exception {
        String ignoredRun = run("trap '' HUP; exec \"$0\" \"$@\"");
        assertTrue(ignoredRun.contains("ignored=true"), ignoredRun);
        assertTrue(ignoredRun.contains("SIGHUP is ignored in this process"), "a warning in the log: " + ignoredRun);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aJvmStartedWithSighupHandledDoesNotWarn() throws Exception {
        assumeFalse(HupIgnored.inThisProcess(), "this JVM ignores SIGHUP (nohup): so does every child it starts");
        String normalRun = run("trap - HUP; exec \"$0\" \"$@\"");
        assertTrue(normalRun.contains("ignored=false"), normalRun);
        assertTrue(!normalRun.contains("SIGHUP is ignored"), normalRun);
    }

    /** A child JVM running {@link HupIgnored#main} behind {@code sh -c script}; its standard output and error. */
    private static String run(String script) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(List.of("sh", "-c", script, java, "-cp",
                System.getProperty("java.class.path"), HupIgnored.class.getName()))
                .redirectErrorStream(true).start();
        process.getOutputStream().close();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the probe JVM ended");
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
