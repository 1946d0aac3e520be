package io.loadwise.dispatcher.store;

import static org.junit.jupiter.api.Assertions.fail;

import io.loadwise.dispatcher.testsupport.Await;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real etcd (Debian's {@code etcd-server}) on free loopback ports with its data in a temporary directory.
 * Outside CI a missing binary skips the test with a message; in CI ({@code CI} set) it fails.
 */
public final class EtcdProcess implements AutoCloseable {

    private final Path dataDir;
    private final String binary;
    private final int clientPort;
    private final int peerPort;
    private Process process;

    public EtcdProcess(Path dir) throws IOException {
        this.binary = find();
        this.dataDir = dir.resolve("etcd-data");
        this.clientPort = freePort();
        this.peerPort = freePort();
        start();
    }

    private static String find() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, "etcd"))) {
                return Path.of(dir, "etcd").toString();
            }
        }
        String message = "etcd is not installed: install the Debian package etcd-server (.ci/install-deps installs"
                + " everything in .ci/test-packages)";
        if (System.getenv("CI") != null) {
            fail(message);
        }
        Assumptions.abort(message);
        return null;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    public String endpoint() {
        return "http://127.0.0.1:" + clientPort;
    }

    public void start() throws IOException {
        String peer = "http://127.0.0.1:" + peerPort;
        process = new ProcessBuilder(binary, "--name", "test", "--data-dir", dataDir.toString(),
                "--listen-client-urls", endpoint(), "--advertise-client-urls", endpoint(),
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                "--initial-cluster", "test=" + peer)
                .redirectErrorStream(true).redirectOutput(dataDir.resolveSibling("etcd.log").toFile()).start();
        EtcdClient client = new EtcdClient(List.of(endpoint()));
        Await.until("etcd answers on " + endpoint(), Duration.ofSeconds(20), () -> {
            try {
                client.rangePrefix("/ready");
                return true;
            } catch (IOException e) {
                return false;
            }
        });
    }

    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
