package io.loadwise.node.glassfish;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs asadmin commands as child processes, each with a deadline, and turns failures into
 * {@link AsadminException}s that quote asadmin's output.
 *
 * <p>Output goes to a file, not a pipe: {@code start-domain} forks the server, which inherits asadmin's
 * stdout and would keep a pipe open for the server's whole life.
 */
final class Asadmin {

    private static final Logger LOG = LoggerFactory.getLogger(Asadmin.class);

    private final GlassFishInstallation installation;
    private final Path outputDir;
    private int invocations;

    Asadmin(GlassFishInstallation installation, Path outputDir) {
        this.installation = installation;
        this.outputDir = outputDir;
    }

    /** Runs {@code asadmin <arguments>}; returns its output when it exits with status 0 within the timeout. */
    synchronized String run(Duration timeout, List<String> arguments) throws AsadminException {
        List<String> command = new ArrayList<>();
        command.add(installation.javaExecutable().toString());
        // asadmin is a short-lived client: the quick compiler and a small GC start it sooner.
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.add("-jar");
        command.add(installation.cliJar().toString());
        command.add("--interactive=false");
        command.addAll(arguments);
        String shown = String.join(" ", arguments);
        Path output = outputDir.resolve("asadmin-" + (++invocations) + ".log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().put("AS_JAVA", installation.javaHome().toString());
        long started = System.nanoTime();
        Process process;
        try {
            Files.createDirectories(outputDir);
            process = builder.start();
            process.getOutputStream().close();
        } catch (IOException e) {
            throw new AsadminException("cannot run asadmin " + shown + ": " + e);
        }
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AsadminException("asadmin " + shown + " did not finish within " + timeout.toSeconds()
                        + " s; output so far:\n" + read(output));
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new AsadminException("interrupted while waiting for asadmin " + shown);
        }
        String text = read(output);
        long millis = (System.nanoTime() - started) / 1_000_000;
        if (process.exitValue() != 0) {
            throw new AsadminException("asadmin " + shown + " failed (exit " + process.exitValue() + ") after "
                    + millis + " ms:\n" + text);
        }
        LOG.debug("asadmin {} took {} ms", shown, millis);
        return text;
    }

    private static String read(Path output) {
        try {
            return Files.readString(output, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "(output unreadable: " + e + ")";
        }
    }
}
