package io.loadwise.dispatcher.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.net.httpserver.HttpServer;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.dispatcher.testsupport.Steady;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.EchoServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code maxClientConnections} of a listener and of the whole dispatcher, with real sockets: at the
 * limit a listener stops accepting, so a further client connects (the kernel's backlog) but gets no
 * answer until a connection closes, and holds no file descriptor of the dispatcher meanwhile.
 */
class DispatcherConnectionLimitTest {

    /** How long "nothing arrives" is watched for: long enough for a proxy that would answer to do so. */
    private static final int SILENCE_MILLIS = 300;

    private final List<Socket> clients = new ArrayList<>();
    private Transport transport;
    private HttpServer node;
    private EchoServer echo;
    private Dispatcher dispatcher;

    @BeforeEach
    void startNodes() throws IOException {
        node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/", exchange -> {
            byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        node.start();
        echo = new EchoServer();
        transport = new Transport(1);
    }

    @AfterEach
    void stop() throws IOException {
        if (dispatcher != null) {
            dispatcher.close(); // first: the listeners' backlogs are dropped, not accepted as clients leave
        }
        for (Socket s : clients) {
            s.close();
        }
        transport.close();
        node.stop(0);
        echo.close();
    }

    private void start(Integer dispatcherLimit, ClusterConfig... clusters) throws Exception {
        LoadwiseConfig config = new LoadwiseConfig(Configs.config().admin(), null, dispatcherLimit, List.of(clusters));
        dispatcher = new Dispatcher(config, null, PolicyRegistry.load(), transport, new ModeListenerFactory());
        dispatcher.start("test-token", false);
    }

    private ClusterConfig http(String name, Integer maxClientConnections) {
        return ClusterConfig.builder().name(name).mode(Mode.HTTP).listen("127.0.0.1:0").policy("round-robin")
                .maxClientConnections(maxClientConnections)
                .nodes(Configs.nodes("127.0.0.1:" + node.getAddress().getPort())).build();
    }

    private ClusterConfig tcp(String name) {
        return Configs.tcp(name, "round-robin", Configs.nodes(echo.address()));
    }

    private Socket connect(String cluster) throws IOException {
        InetSocketAddress address = dispatcher.boundAddress(cluster);
        Socket s = new Socket(address.getAddress(), address.getPort());
        clients.add(s);
        return s;
    }

    /** Sends a GET on {@code s} (kept alive) and returns the response body. */
    private static String get(Socket s, int timeoutMillis) throws IOException {
        s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return readResponseBody(s, timeoutMillis);
    }

    private static String readResponseBody(Socket s, int timeoutMillis) throws IOException {
        s.setSoTimeout(timeoutMillis);
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                fail("connection closed after " + head);
            }
            head.write(b);
        }
        String headers = head.toString(StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT);
        assertTrue(headers.startsWith("http/1.1 200"), headers);
        int at = headers.indexOf("content-length:");
        int length = Integer.parseInt(headers.substring(at + 15, headers.indexOf("\r\n", at)).trim());
        return new String(in.readNBytes(length), StandardCharsets.US_ASCII);
    }

    private static String echoed(Socket s, String text, int timeoutMillis) throws IOException {
        s.setSoTimeout(timeoutMillis);
        s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        return new String(s.getInputStream().readNBytes(text.length()), StandardCharsets.US_ASCII);
    }

    @Test
    void aListenerAtItsLimitLeavesTheNextClientWaitingUntilOneCloses() throws Exception {
        start(null, http("web", 4));
        List<Socket> served = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Socket s = connect("web");
            assertEquals("ok", get(s, 5_000));
            served.add(s);
        }
        Socket fifth = connect("web");
        fifth.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThrows(SocketTimeoutException.class, () -> readResponseBody(fifth, SILENCE_MILLIS),
                "no answer while four connections are open");
        assertEquals(4, dispatcher.cluster("web").counters().activeConnections());

        served.get(0).close();
        assertEquals("ok", readResponseBody(fifth, 5_000), "served as soon as one closed");
        assertEquals("ok", get(served.get(1), 5_000), "the others are untouched");
        assertEquals(0, dispatcher.cluster("web").counters().rejectedConnections());
    }

    @Test
    void theDispatcherLimitIsSharedByHttpAndTcpListeners() throws Exception {
        start(3, http("web", null), tcp("echo"));
        assertEquals(3, dispatcher.clientConnections().max());
        Socket web1 = connect("web");
        Socket web2 = connect("web");
        Socket echo1 = connect("echo");
        assertEquals("ok", get(web1, 5_000));
        assertEquals("ok", get(web2, 5_000));
        assertEquals("a", echoed(echo1, "a", 5_000));
        Await.until("three client connections held", () -> dispatcher.clientConnections().open() == 3);

        Socket echo2 = connect("echo");
        assertThrows(SocketTimeoutException.class, () -> echoed(echo2, "b", SILENCE_MILLIS),
                "the tcp listener waits while two http and one tcp connection use the dispatcher's three");

        web1.close();
        echo2.setSoTimeout(5_000);
        assertEquals("b", new String(echo2.getInputStream().readNBytes(1), StandardCharsets.US_ASCII),
                "an http connection closing lets the tcp listener accept");
        Await.until("the freed slot is taken again", () -> dispatcher.clientConnections().open() == 3);
        assertEquals(2, dispatcher.cluster("echo").counters().activeConnections());
    }

    @Test
    void idleConnectionsBeyondTheLimitUseNoDescriptorsOfTheDispatcher() throws Exception {
        int limit = 10;
        int beyond = 1_000;
        start(limit, http("web", null));
        long before = openDescriptors();
        for (int i = 0; i < limit; i++) {
            assertEquals("ok", get(connect("web"), 5_000));
        }
        for (int i = 0; i < beyond; i++) {
            connect("web"); // idle: never sends a byte
        }
        // This JVM holds the client sockets too (one descriptor each); the dispatcher's share is what is
        // left: one per connection it accepted, its node connections and the node's own sockets.
        long bound = limit + beyond + limit + 2L * limit + 32;
        Steady.holds("descriptors stay bounded", Duration.ofSeconds(1), () -> {
            long used = openDescriptors() - before;
            assertTrue(used <= bound, used + " descriptors in use, at most " + bound + " expected");
            return true;
        });
        assertEquals(limit, dispatcher.clientConnections().open());
        assertEquals(limit, dispatcher.cluster("web").counters().activeConnections());
    }

    private static long openDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
