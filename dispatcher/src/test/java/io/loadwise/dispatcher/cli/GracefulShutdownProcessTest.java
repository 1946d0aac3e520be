package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loadwise.dispatcher.testsupport.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loadwise run} as a real process, stopped with real signals (SIGTERM): requests in flight finish, nothing new is accepted, the exit code is 0; a second SIGTERM exits
 * at once; a request that outlives the grace is cut off.
 */
class GracefulShutdownProcessTest {

    @TempDir
    Path dir;

    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());
    /**
     * HTTP/1.1: otherwise the JDK client upgrades to h2c, and JDK 17's client fails a stream in flight on the
     * GOAWAY a closing HTTP/2 listener sends, however gracefully the server goes on with it.
     */
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private HttpServer node;
    private Process process;
    private int port;
    private Thread reader;

    @BeforeEach
    void startNode() throws IOException {
        node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.setExecutor(Executors.newCachedThreadPool());
        // only /work: the node monitor also asks the node whether it has an agent (a 404 here)
        node.createContext("/work", exchange -> {
            arrived.countDown();
            try {
                release.await(60, TimeUnit.SECONDS); // the request is in flight until the test releases it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "done".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        node.start();
    }

    @AfterEach
    void stop() {
        synchronized (output) {
            System.out.println("dispatcher output:\n" + String.join("\n", output));
        }
        release.countDown();
        if (process != null) {
            process.destroyForcibly();
        }
        node.stop(0);
    }

    private void startDispatcher(int graceMs) throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path config = dir.resolve("loadwise.json");
        Files.writeString(config, ("{'admin':{'listen':'127.0.0.1:0','token':'test-token-0123456789'},"
                + "'shutdownGraceMs':" + graceMs + ",'clusters':[{'name':'web','mode':'http','listen':'127.0.0.1:"
                + port + "','policy':'round-robin','nodes':[{'name':'a','address':'127.0.0.1:"
                + node.getAddress().getPort() + "'}]}]}").replace('\'', '"'));
        process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", "--config", config.toString(), "--log-level", "info",
                "--worker-threads", "1")
                .redirectErrorStream(true).start();
        reader = new Thread(() -> {
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
        Await.until("the dispatcher runs", Duration.ofSeconds(60), () -> logged("loadwise running with"));
    }

    private boolean logged(String text) {
        synchronized (output) {
            return output.stream().anyMatch(l -> l.contains(text));
        }
    }

    private CompletableFuture<HttpResponse<String>> requestInFlight() throws InterruptedException {
        CompletableFuture<HttpResponse<String>> response = client.sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/work")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(arrived.await(30, TimeUnit.SECONDS), "the request reached the node");
        return response;
    }

    /** SIGTERM, through the process handle: {@link Process#destroy()} would also close our end of its output. */
    private void sigterm() {
        assertTrue(process.toHandle().destroy(), "SIGTERM sent");
    }

    /** Waits for the exit and for the last line of output to be read. */
    private boolean exits() throws InterruptedException {
        boolean exited = process.waitFor(30, TimeUnit.SECONDS);
        reader.join(10_000);
        return exited;
    }

    private boolean refuses() {
        try {
            new Socket(InetAddress.getLoopbackAddress(), port).close();
            return false;
        } catch (ConnectException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void sigtermLetsTheRequestInFlightFinishAcceptsNothingNewAndExitsZero() throws Exception {
        startDispatcher(30_000);
        CompletableFuture<HttpResponse<String>> response = requestInFlight();
        sigterm();
        Await.until("SIGTERM handled", () -> logged("SIGTERM: shutting down"));
        Await.until("the listener is closed", () -> refuses());
        assertTrue(process.isAlive(), "the process waits for the request in flight");
        release.countDown();
        HttpResponse<String> answer = response.get(30, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode());
        assertEquals("done", answer.body());
        assertTrue(exits(), "the process exits once nothing is in flight");
        assertEquals(0, process.exitValue());
        assertTrue(logged("every request in flight has finished"), String.join("\n", output));
    }

    @Test
    void aSecondSigtermExitsAtOnce() throws Exception {
        startDispatcher(60_000);
        CompletableFuture<HttpResponse<String>> response = requestInFlight();
        sigterm();
        Await.until("SIGTERM handled", () -> logged("SIGTERM: shutting down"));
        long start = System.nanoTime();
        sigterm();
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), "the second SIGTERM ends the process");
        reader.join(10_000);
        assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 20);
        assertEquals(GracefulShutdown.FORCED_EXIT, process.exitValue());
        assertThrows(ExecutionException.class, () -> response.get(30, TimeUnit.SECONDS),
                "the request in flight was cut off");
    }

    @Test
    void aRequestThatOutlivesTheGraceIsCutOffAndTheExitIsStillZero() throws Exception {
        startDispatcher(300);
        CompletableFuture<HttpResponse<String>> response = requestInFlight();
        sigterm();
        assertTrue(exits());
        assertEquals(0, process.exitValue());
        assertTrue(logged("grace of 300 ms over: closing 1 requests or tunnels still in flight"),
                String.join("\n", output));
        assertThrows(ExecutionException.class, () -> response.get(30, TimeUnit.SECONDS));
    }
}
