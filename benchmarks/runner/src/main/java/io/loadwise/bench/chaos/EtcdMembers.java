package io.loadwise.bench.chaos;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real etcd cluster of N members on loopback (Debian's {@code etcd-server}, as the dispatcher's etcd tests
 * start it in {@code EtcdProcess}), each with its data under {@code dir}: started together, one member
 * restarted at a time, and keys written through etcd's JSON gateway ({@code POST /v3/kv/put}).
 */
final class EtcdMembers implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Path dir;
    private final String binary;
    private final int[] clientPorts;
    private final int[] peerPorts;
    private final Process[] processes;

    private EtcdMembers(Path dir, String binary, int n) throws IOException {
        this.dir = dir;
        this.binary = binary;
        this.clientPorts = new int[n];
        this.peerPorts = new int[n];
        this.processes = new Process[n];
        for (int i = 0; i < n; i++) {
            clientPorts[i] = freePort();
            peerPorts[i] = freePort();
        }
    }

    /** The etcd on the PATH, or null. */
    static String binary() {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, "etcd"))) {
                return Path.of(d, "etcd").toString();
            }
        }
        return null;
    }

    static EtcdMembers start(Path dir, int n) throws IOException, InterruptedException {
        String binary = binary();
        if (binary == null) {
            throw new IOException("--etcd: etcd is not installed (Debian package etcd-server)");
        }
        Files.createDirectories(dir);
        EtcdMembers members = new EtcdMembers(dir, binary, n);
        try {
            for (int i = 0; i < n; i++) {
                members.launch(i);
            }
            for (int i = 0; i < n; i++) {
                members.awaitHealthy(i);
            }
            return members;
        } catch (IOException | InterruptedException | RuntimeException e) {
            members.close();
            throw e;
        }
    }

    int size() {
        return processes.length;
    }

    List<String> endpoints() {
        List<String> list = new ArrayList<>();
        for (int port : clientPorts) {
            list.add("http://127.0.0.1:" + port);
        }
        return list;
    }

    private void launch(int i) throws IOException {
        StringBuilder cluster = new StringBuilder();
        for (int k = 0; k < processes.length; k++) {
            cluster.append(k == 0 ? "" : ",").append("m").append(k).append("=http://127.0.0.1:").append(peerPorts[k]);
        }
        String client = "http://127.0.0.1:" + clientPorts[i];
        String peer = "http://127.0.0.1:" + peerPorts[i];
        processes[i] = new ProcessBuilder(binary, "--name", "m" + i, "--data-dir", dir.resolve("m" + i).toString(),
                "--listen-client-urls", client, "--advertise-client-urls", client, "--listen-peer-urls", peer,
                "--initial-advertise-peer-urls", peer, "--initial-cluster", cluster.toString(),
                "--initial-cluster-state", "new", "--initial-cluster-token", "loadwise-soak")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("m" + i + ".log")
                        .toFile())).start();
        processes[i].getOutputStream().close();
    }

    private void awaitHealthy(int i) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        URI health = URI.create(endpoints().get(i) + "/health");
        while (true) {
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 && r.body().contains("\"true\"")) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (!processes[i].isAlive()) {
                throw new IOException("etcd member m" + i + " exited with " + processes[i].exitValue() + "; see "
                        + dir.resolve("m" + i + ".log"));
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IOException("etcd member m" + i + " was not healthy within 30 s");
            }
            Thread.sleep(100);
        }
    }

    /** Stops member {@code i} (SIGTERM) and starts it again on its ports and data, until it says healthy. */
    void restart(int i) throws IOException, InterruptedException {
        stop(processes[i]);
        launch(i);
        awaitHealthy(i);
    }

    /** {@code PUT key = value}, through the first member that takes it. */
    void put(String key, String value) throws IOException, InterruptedException {
        Base64.Encoder b64 = Base64.getEncoder();
        String body = "{\"key\":\"" + b64.encodeToString(key.getBytes(StandardCharsets.UTF_8)) + "\",\"value\":\""
                + b64.encodeToString(value.getBytes(StandardCharsets.UTF_8)) + "\"}";
        IOException last = null;
        for (String endpoint : endpoints()) {
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(endpoint + "/v3/kv/put"))
                        .timeout(Duration.ofSeconds(5)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
                last = new IOException("etcd " + endpoint + " answered " + r.statusCode() + ": " + r.body());
            } catch (IOException e) {
                last = e;
            }
        }
        throw last;
    }

    private static void stop(Process p) throws InterruptedException {
        if (p == null) {
            return;
        }
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (Process p : processes) {
            stop(p);
        }
    }
}
