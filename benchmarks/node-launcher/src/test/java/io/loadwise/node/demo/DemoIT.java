package io.loadwise.node.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's main command end to end: database, three nodes with the real agent, the real dispatcher
 * jar, a request through it, agent metrics reaching the dispatcher, and nothing left running after.
 */
class DemoIT {

    @TempDir
    Path work;

    @Test
    void theDemoStartsEveryPartChecksItAndStopsThemAll() throws Exception {
        Path root = Path.of(System.getProperty("loadwise.root", "../..")).toAbsolutePath().normalize();
        Path dispatcherJar = root.resolve("admin-console/target/loadwise.jar");
        Path agentJar = onlyJar(root.resolve("node-agent/jakarta/target"), "loadwise-agent-jakarta-");
        assertTrue(Files.isRegularFile(dispatcherJar), "built before this test: " + dispatcherJar);
        List<Integer> ports = freePorts(5);

        // As ./loadwise demo runs it: the shaded launcher jar in a JVM of its own.
        Path launcherJar = Path.of("target", "loadwise-node-launcher.jar").toAbsolutePath();
        Path output = work.resolve("demo.out");
        Process demo = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", launcherJar.toString(), DemoMain.class.getName(),
                "--dispatcher-jar", dispatcherJar.toString(), "--agent-jar", agentJar.toString(),
                "--work-dir", work.resolve("demo").toString(), "--users", "20",
                "--dispatcher-port", ports.get(0).toString(), "--admin-port", ports.get(1).toString(),
                "--node-ports", ports.get(2) + "," + ports.get(3) + "," + ports.get(4), "--exit-when-ready")
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean finished = demo.waitFor(6, java.util.concurrent.TimeUnit.MINUTES);
        if (!finished) {
            demo.descendants().forEach(ProcessHandle::destroyForcibly);
            demo.destroyForcibly();
        }
        int exit = finished ? demo.exitValue() : -1;
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(0, exit, "demo failed:\n" + printed);
        assertTrue(printed.contains("Loadwise demo is running."), printed);
        assertTrue(printed.contains("agent metrics arriving from every node"), printed);
        assertTrue(printed.contains("http://127.0.0.1:" + ports.get(0) + "/trade/scenario"), printed);
        assertTrue(printed.contains("demo: stopped."), printed);
        // Every part the demo started names its directory under the work dir on its command line.
        String workPath = work.toString();
        assertEquals(List.of(), ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().commandLine().orElse("").contains(workPath))
                .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList(), "processes left running");
    }

    @Test
    void aBadOptionIsAClearErrorAndStartsNothing() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = DemoMain.run(new String[] {"--dispatcher-jar", "x.jar", "--node-ports", "1,2"},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, exit);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--node-ports needs three ports"));
        assertEquals(0, ProcessHandle.current().descendants().count());
    }

    private static Path onlyJar(Path dir, String prefix) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix)
                    && p.getFileName().toString().endsWith(".jar")).findFirst()
                    .orElseThrow(() -> new IOException("no " + prefix + "*.jar in " + dir));
        }
    }

    private static List<Integer> freePorts(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports.add(socket.getLocalPort());
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
    }
}
