package io.loadwise.dispatcher.faults;

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

/** A {@link FaultNode} in a process of its own: started, switched between modes, killed, stopped, resumed. */
final class NodeProcess implements AutoCloseable {

    private static final HttpClient CONTROL = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String name;
    private final Process process;
    private final int port;

    private NodeProcess(String name, Process process, int port) {
        this.name = name;
        this.process = process;
        this.port = port;
    }

    static NodeProcess start(String name, int port) throws IOException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:TieredStopAtLevel=1", "-Xss256k", "-cp", System.getProperty("java.class.path"),
                FaultNode.class.getName(), name, Integer.toString(port))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine(); // blocks until the node listens or dies
        if (line == null || !line.startsWith("PORT ")) {
            p.destroyForcibly();
            throw new IOException("node " + name + " did not start: " + line);
        }
        return new NodeProcess(name, p, Integer.parseInt(line.substring(5).trim()));
    }

    String name() {
        return name;
    }

    int port() {
        return port;
    }

    String address() {
        return "127.0.0.1:" + port;
    }

    /** Switches the fault: ok, 500, slow or reset. */
    void mode(String mode) throws IOException, InterruptedException {
        HttpResponse<String> r = CONTROL.send(HttpRequest.newBuilder(URI.create("http://" + address() + "/_fault/" + mode))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("node " + name + " refused mode " + mode);
        }
    }

    void kill() throws InterruptedException {
        process.destroyForcibly(); // SIGKILL
        process.waitFor();
    }

    void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            signal("CONT");
            kill();
        }
    }
}
