package io.loadwise.node.process;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JVM this process started. Its standard output and error go, line by line, to a log file; the
 * first line starting with the ready marker completes {@link #ready()}. Standard input stays an open
 * pipe so a child started with {@code --exit-with-parent} dies with us.
 */
public final class ChildJvm implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ChildJvm.class);
    private static final int TAIL_LINES = 40;
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final String name;
    private final Process process;
    private final Path logFile;
    private final CompletableFuture<String> ready = new CompletableFuture<>();
    private final Thread pump;

    private ChildJvm(String name, Process process, Path logFile, String readyMarker) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.pump = new Thread(() -> copyOutput(readyMarker), name + "-output");
        pump.setDaemon(true);
    }

    /** Starts {@code command} with its output appended to {@code logFile}. */
    public static ChildJvm start(String name, List<String> command, Path logFile, String readyMarker)
            throws IOException {
        Files.createDirectories(logFile.toAbsolutePath().getParent());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        ChildJvm child = new ChildJvm(name, process, logFile, readyMarker);
        child.pump.start();
        LOG.info("started {} (pid {}), log {}", name, process.pid(), logFile);
        return child;
    }

    /** The java executable of the running JVM, so children run on the same Java. */
    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path logFile() {
        return logFile;
    }

    /** Completes with the ready line; fails if the JVM exits first. */
    public CompletableFuture<String> ready() {
        return ready;
    }

    /** Waits for the ready line; on timeout or early exit the exception carries the log's tail. */
    public String awaitReady(Duration timeout) throws IOException, InterruptedException {
        try {
            return ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException(name + " not ready after " + timeout + "\n" + tailText(), e);
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage() + "\n" + tailText(), e.getCause());
        }
    }

    /** The last lines of the log, for error messages. */
    public List<String> logTail(int lines) throws IOException {
        if (!Files.exists(logFile)) {
            return List.of();
        }
        List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
        return new ArrayList<>(all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    /** Sends SIGTERM without waiting, so several children can shut down at the same time. */
    public void requestStop() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.toHandle().destroy();
    }

    /**
     * Stops the JVM and anything it started: SIGTERM (so shutdown hooks run), then, after
     * {@code grace}, a forced kill. Returns once all of them are gone.
     */
    public void stop(Duration grace) throws InterruptedException {
        List<ProcessHandle> descendants = process.descendants().toList();
        // Signal through the handle: Process.destroy() would also close our end of its output and
        // lose what it logs while shutting down.
        process.toHandle().destroy();
        descendants.forEach(ProcessHandle::destroy);
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            LOG.warn("{} (pid {}) ignored SIGTERM for {}: killing it", name, process.pid(), grace);
            process.toHandle().destroyForcibly();
            process.waitFor();
        }
        for (ProcessHandle descendant : descendants) {
            try {
                descendant.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                descendant.destroyForcibly();
            }
        }
        pump.join(grace.toMillis());
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // The pipe to a dead process may already be broken; nothing is left to release.
        }
        LOG.info("stopped {} (exit code {})", name, process.exitValue());
    }

    /**
     * {@link #stop} with a 10 s grace period. If this thread is interrupted meanwhile, the JVM and its
     * descendants are killed at once and the interrupt flag is kept.
     */
    @Override
    public void close() {
        try {
            stop(STOP_GRACE);
        } catch (InterruptedException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.toHandle().destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void copyOutput(String readyMarker) {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             BufferedWriter log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                log.write(line);
                log.newLine();
                log.flush();
                if (!ready.isDone() && line.startsWith(readyMarker)) {
                    ready.complete(line);
                }
            }
        } catch (IOException e) {
            LOG.warn("lost the output of {}", name, e);
        }
        process.onExit().thenAccept(p -> ready.completeExceptionally(
                new IOException(name + " exited with code " + p.exitValue() + " before it was ready")));
    }

    private String tailText() throws IOException {
        return "last lines of " + logFile + ":\n" + String.join("\n", logTail(TAIL_LINES));
    }
}
