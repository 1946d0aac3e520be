package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.cli.Cli;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.net.ClusterListener;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.dispatcher.testsupport.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * {@code loadwise run} takes over SIGHUP before anything listens: a SIGHUP sent the moment a port answers reloads
 * the configuration instead of ending the JVM with 129.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class ReloadSignalOrderTest {

    @TempDir
    Path dir;

    private final List<String> output = Collections.synchronizedList(new ArrayList<>());
    private Process process;

    @AfterEach
    void stop() {
        if (process != null) {
            synchronized (output) {
                System.out.println("dispatcher output:\n" + String.join("\n", output));
            }
            process.destroyForcibly();
        }
    }

    private Path config(int port) throws IOException {
        Path file = dir.resolve("loadwise.json");
        Files.writeString(file, ("{'admin':{'listen':'127.0.0.1:0','token':'test-token-0123456789'},'clusters':["
                + "{'name':'a','mode':'tcp','listen':'127.0.0.1:" + port + "','policy':'test-round-robin',"
                + "'nodes':[{'name':'n1','address':'127.0.0.1:9001'}]}]}").replace('\'', '"'));
        return file;
    }

    /**
     * Structural: when the first listener starts listening, the SIGHUP handler the JVM holds is already the one
     * this start installed (not the JVM's default, nor one left by an earlier test in this JVM).
     */
    @Test
    void theHandlerIsInstalledBeforeTheFirstListenerListens() throws Exception {
        Path file = config(0);
        RunCommand run = new RunCommand();
        Cli.configure(new CommandLine(run)).parseArgs("--config", file.toString());
        AtomicReference<SignalHandler> atListen = new AtomicReference<>();
        ModeListenerFactory real = new ModeListenerFactory();
        run.listeners = (cluster, transport, limit) -> {
            ClusterListener listener = real.create(cluster, transport, limit);
            return new ClusterListener() {
                @Override
                public InetSocketAddress start() throws IOException {
                    atListen.compareAndSet(null, currentHupHandler());
                    return listener.start();
                }

                @Override
                public InetSocketAddress boundAddress() {
                    return listener.boundAddress();
                }

                @Override
                public void close() {
                    listener.close();
                }
            };
        };
        try (RunCommand.Started started = run.start(ConfigLoader.load(file), Map.of())) {
            assertNotNull(started.dispatcher().boundAddress("a"), "the cluster listens");
            assertNotNull(atListen.get(), "the listener was started");
            assertNotNull(run.reloadSignal, "start installed a SIGHUP handler");
            assertSame(run.reloadSignal, atListen.get(),
                    "the SIGHUP handler in force when the first listener started is this start's ReloadSignal");
        }
    }

    /** Swaps a no-op in for a moment to read the handler in force (Signal has no getter), then puts it back. */
    private static SignalHandler currentHupHandler() {
        Signal hup = new Signal("HUP");
        SignalHandler current = Signal.handle(hup, signal -> { });
        Signal.handle(hup, current);
        return current;
    }

    /**
     * A real process: SIGHUP is sent as soon as the cluster's port accepts a connection. The process must live
     * on and reload (it rereads the file, which by then names a second node).
     */
    @Test
    void aSighupAsSoonAsThePortAnswersReloadsAndDoesNotKill() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path file = config(port);
        process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", "--config", file.toString(), "--log-level", "info",
                "--worker-threads", "1")
                .redirectErrorStream(true).start();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    output.add(line);
                }
            } catch (IOException e) {
                // the process is gone
            }
        }, "dispatcher-output");
        reader.setDaemon(true);
        reader.start();
        // the next start would read this one: a reload finds one cluster changed
        Files.writeString(file, Files.readString(file).replace("\"nodes\":[{\"name\":\"n1\",\"address\":\"127.0.0.1:9001\"}]",
                "\"nodes\":[{\"name\":\"n1\",\"address\":\"127.0.0.1:9001\"},{\"name\":\"n2\",\"address\":\"127.0.0.1:9002\"}]"));

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!accepts(port)) {
            assertTrue(process.isAlive(), "the dispatcher died before listening: " + output);
            assertTrue(System.nanoTime() - deadline < 0, "the port never answered: " + output);
            Thread.onSpinWait();
        }
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(process.pid())).start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, kill.exitValue());

        Await.until("the SIGHUP reloaded the configuration", Duration.ofSeconds(60), () -> logged("SIGHUP: reloading")
                && logged("reloaded "));
        assertTrue(process.isAlive(), "the process lives on after the SIGHUP: exit "
                + (process.isAlive() ? "" : process.exitValue()) + "\n" + output);
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private boolean logged(String text) {
        synchronized (output) {
            return output.stream().anyMatch(l -> l.contains(text));
        }
    }
}
