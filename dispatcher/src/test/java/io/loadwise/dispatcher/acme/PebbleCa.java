package io.loadwise.dispatcher.acme;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Let's Encrypt's ACME test server, Pebble, as a real CA for the tests: built from the Go module proxy into
 * {@code target/go} the first time (a minute or two), started on free ports, stopped with the test. Pebble checks each
 * http-01 challenge for real, by fetching {@code http://<name>:<httpPort>/.well-known/acme-challenge/<token>}.
 */
final class PebbleCa implements AutoCloseable {

    static final String MODULE = "github.com/letsencrypt/pebble/v2";
    static final String VERSION = "v2.10.3";
    private static final Path GO = Path.of("target/go").toAbsolutePath();

    private final Process process;
    private final int port;
    private final Path log;

    private PebbleCa(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Whether the Go toolchain is on the PATH (it is on the CI machine; the test is skipped without it). */
    static boolean goAvailable() {
        try {
            return new ProcessBuilder("go", "version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The pebble binary, built once. */
    static synchronized Path binary() throws IOException, InterruptedException {
        Path bin = GO.resolve("bin/pebble");
        if (Files.isExecutable(bin)) {
            return bin;
        }
        ProcessBuilder build = new ProcessBuilder("go", "install", MODULE + "/cmd/pebble@" + VERSION)
                .redirectErrorStream(true).redirectOutput(GO.resolveSibling("pebble-build.log").toFile());
        Files.createDirectories(GO);
        Map<String, String> env = build.environment();
        env.put("GOPATH", GO.toString());
        env.put("GOBIN", GO.resolve("bin").toString());
        env.put("GOFLAGS", "-modcacherw"); // so that mvn clean can delete the module cache
        env.put("GOTOOLCHAIN", "local");
        Process go = build.start();
        if (!go.waitFor(10, TimeUnit.MINUTES) || go.exitValue() != 0) {
            go.destroyForcibly();
            throw new IOException("go install " + MODULE + "@" + VERSION + " failed: "
                    + Files.readString(GO.resolveSibling("pebble-build.log")));
        }
        return bin;
    }

    /** The CA certificate Pebble's own HTTPS listener chains to (its test certificates, in the module). */
    static Path trustedCa() {
        return GO.resolve("pkg/mod/" + MODULE + "@" + VERSION + "/test/certs/pebble.minica.pem");
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * Starts Pebble: its directory at {@link #directory()}, checking http-01 challenges on {@code httpPort}, issuing
     * certificates valid for {@code validity}.
     */
    static PebbleCa start(Path dir, int httpPort, Duration validity) throws IOException, InterruptedException {
        return start(dir, httpPort, freePort(), validity);
    }

    /** {@link #start(Path, int, Duration)}, checking tls-alpn-01 challenges on {@code tlsPort}. */
    static PebbleCa start(Path dir, int httpPort, int tlsPort, Duration validity) throws IOException,
            InterruptedException {
        Path bin = binary();
        int port = freePort();
        Path certs = trustedCa().getParent().resolve("localhost");
        Path config = dir.resolve("pebble-config.json");
        Files.writeString(config, """
                {"pebble": {"listenAddress": "127.0.0.1:%d", "managementListenAddress": "127.0.0.1:%d",
                  "certificate": "%s", "privateKey": "%s", "httpPort": %d, "tlsPort": %d,
                  "ocspResponderURL": "", "externalAccountBindingRequired": false,
                  "profiles": {"default": {"description": "test", "validityPeriod": %d}}}}
                """.formatted(port, freePort(), certs.resolve("cert.pem"), certs.resolve("key.pem"), httpPort,
                tlsPort, validity.toSeconds()), StandardCharsets.UTF_8);
        Path log = dir.resolve("pebble-" + port + ".log");
        ProcessBuilder pb = new ProcessBuilder(bin.toString(), "-config", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("PEBBLE_VA_NOSLEEP", "1"); // no random wait before each check
        pb.environment().put("PEBBLE_WFE_NONCEREJECT", "0"); // no random badNonce answers
        Process process = pb.start();
        PebbleCa ca = new PebbleCa(process, port, log);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!ca.accepting()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                ca.close();
                throw new IOException("pebble did not start: " + Files.readString(log));
            }
            process.waitFor(50, TimeUnit.MILLISECONDS);
        }
        return ca;
    }

    private boolean accepting() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    String directory() {
        return "https://localhost:" + port + "/dir";
    }

    List<String> logLines() throws IOException {
        return Files.readAllLines(log);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
