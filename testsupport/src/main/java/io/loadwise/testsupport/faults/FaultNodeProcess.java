package io.loadwise.testsupport.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A {@link FaultNode} in a JVM of its own, started on the caller's class path (the test's, or the bench jar):
 * switched between modes, SIGKILLed, SIGSTOPped and SIGCONTed, and restarted on the same port.
 */
public final class FaultNodeProcess implements AutoCloseable {

    private static final HttpClient CONTROL = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final String name;
    private final int port;
    private Process process;

    private FaultNodeProcess(String name, int port, Process process) {
        this.name = name;
        this.port = port;
        this.process = process;
    }

    /** Starts the node on {@code port} (0: any) and returns once it listens. */
    public static FaultNodeProcess start(String name, int port) throws IOException {
        Process p = launch(name, port);
        return new FaultNodeProcess(name, portOf(name, p), p);
    }

    private static Process launch(String name, int port) throws IOException {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:TieredStopAtLevel=1", "-Xss256k", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), FaultNode.class.getName(), name, Integer.toString(port))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static int portOf(String name, Process p) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine(); // blocks until the node listens or dies
        if (line == null || !line.startsWith("PORT ")) {
            p.destroyForcibly();
            throw new IOException("node " + name + " did not start: " + line);
        }
        return Integer.parseInt(line.substring(5).trim());
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    public String address() {
        return "127.0.0.1:" + port;
    }

    /** Switches the node's mode: ok, 500, slow or reset. */
    public void mode(String mode) throws IOException, InterruptedException {
        HttpResponse<String> r = CONTROL.send(HttpRequest.newBuilder(URI.create("http://" + address() + "/_fault/" + mode))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("node " + name + " refused mode " + mode + ": " + r.statusCode());
        }
    }

    /** SIGKILL, and wait until the process is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Starts the node again on its port, after {@link #kill}. */
    public void restart() throws IOException {
        if (process.isAlive()) {
            throw new IllegalStateException("node " + name + " is still running");
        }
        Process p = launch(name, port);
        portOf(name, p);
        process = p;
    }

    /** Sends {@code signal} (STOP, CONT, ...) with kill(1). */
    public void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (process.isAlive()) {
            signal("CONT");
            kill();
        }
    }
}
