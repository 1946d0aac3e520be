package io.loadwise.dispatcher.http3;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Python's aioquic (an HTTP/3 client independent of Netty) in a venv of its own under {@code target/}, pip-installed
 * at a pinned version from PyPI the first time; the tests skip, saying why, only when the machine has no python3.
 * Runs {@code src/test/resources/http3/h3client.py} with a JSON job on stdin and reads its JSON result.
 */
final class Aioquic {

    static final String VERSION = "1.7.2";
    private static final Path VENV = Path.of("target", "aioquic-" + VERSION);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path python;

    private Aioquic() {
    }

    /** The venv's python with aioquic installed; skips the calling test when python3 is absent. */
    static synchronized Path python() throws IOException, InterruptedException {
        if (python != null) {
            return python;
        }
        assumeTrue(exitOf(List.of("python3", "--version"), 30) == 0,
                "python3 is not installed: the HTTP/3 tests need it for aioquic (an independent QUIC client)");
        Path bin = VENV.resolve("bin/python");
        if (!Files.isExecutable(bin) || exitOf(List.of(bin.toString(), "-c", "import aioquic"), 30) != 0) {
            run(List.of("python3", "-m", "venv", "--clear", VENV.toString()), 120,
                    "python3 -m venv failed: install python3-venv (.ci/test-packages)");
            run(List.of(bin.toString(), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "aioquic==" + VERSION), 600, "pip could not install aioquic " + VERSION + " from PyPI");
        }
        python = bin;
        return python;
    }

    /** Runs one job ({@code h3client.py}'s fields) and returns its result. */
    static JsonNode run(Object job) throws IOException, InterruptedException {
        Path script = Path.of("src/test/resources/http3/h3client.py");
        Process process = new ProcessBuilder(python().toString(), script.toString()).redirectErrorStream(false)
                .start();
        process.getOutputStream().write(JSON.writeValueAsBytes(job));
        process.getOutputStream().close();
        byte[] out;
        try (InputStream in = process.getInputStream()) {
            out = in.readAllBytes();
        }
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("h3client.py did not finish");
        }
        String text = new String(out, StandardCharsets.UTF_8).trim();
        if (process.exitValue() != 0 || text.isEmpty()) {
            throw new IOException("h3client.py exited " + process.exitValue() + ": " + text + "\n" + err);
        }
        return JSON.readTree(text);
    }

    private static void run(List<String> command, int seconds, String failure) throws IOException,
            InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(seconds, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException(failure + ": " + output);
        }
    }

    private static int exitOf(List<String> command, int seconds) throws InterruptedException {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
        } catch (IOException e) {
            return -1;
        }
    }
}
