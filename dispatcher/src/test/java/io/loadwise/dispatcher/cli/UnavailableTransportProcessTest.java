package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loadwise run --transport io_uring} where io_uring cannot run: the start fails with Netty's reason, it
 * does not fall back. A real process, because whether io_uring runs is decided once per JVM; Netty's
 * {@code -Dio.netty.transport.noNative=true} makes it unavailable on any machine, with a known reason.
 */
class UnavailableTransportProcessTest {

    @TempDir
    Path dir;

    @Test
    void ioUringThatCannotRunStopsTheStartWithTheReason() throws Exception {
        Path config = dir.resolve("loadwise.json");
        Files.writeString(config, ("{'admin':{'listen':'127.0.0.1:0','token':'test-token-0123456789'},"
                + "'clusters':[{'name':'web','mode':'http','listen':'127.0.0.1:0','policy':'round-robin',"
                + "'nodes':[{'name':'a','address':'127.0.0.1:9'}]}]}").replace('\'', '"'));
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-Dio.netty.transport.noNative=true",
                "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", "--config", config.toString(), "--transport", "io_uring")
                .redirectErrorStream(true).start();
        try {
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the process ended by itself");
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(Main.INVALID, process.exitValue(), output);
            assertTrue(output.contains("loadwise run: transport io_uring is not available on this machine: "
                    + "java.lang.UnsupportedOperationException: Native transport was explicit disabled with "
                    + "-Dio.netty.transport.noNative=true"), output);
            assertFalse(output.contains("loadwise running"), output);
        } finally {
            process.destroyForcibly();
        }
    }
}
