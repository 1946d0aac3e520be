package io.loadwise.dispatcher.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.AccessLogConfig;
import io.loadwise.dispatcher.config.LoggingConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.logging.AccessLog;
import io.loadwise.dispatcher.logging.LoggingSetup;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.EchoServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The access log as {@code loadwise run} writes it: {@code logging.accessLog} applied by
 * {@link LoggingSetup}, then a real {@link Dispatcher} with HTTP and TCP clusters. Every finished HTTP
 * request, whoever answered it, and every tunnel gets its line.
 */
class DispatcherAccessLogTest {

    @TempDir
    Path dir;

    private final Logger access = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(AccessLog.LOGGER);
    private final Level accessLevel = access.getLevel();
    private Path accessFile;
    private Transport transport;
    private HttpServer node;
    private EchoServer echo;
    private Dispatcher dispatcher;

    @BeforeEach
    void start() throws Exception {
        node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/", exchange -> {
            byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/missing") ? 404 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        node.start();
        echo = new EchoServer();
        accessFile = dir.resolve("access.log");
        LoadwiseConfig config = new LoadwiseConfig(Configs.config().admin(),
                new LoggingConfig(null, null, null, AccessLogConfig.ofFile(accessFile.toString())), List.of(
                        http("shop", "127.0.0.1:" + node.getAddress().getPort()),
                        http("gone", Configs.deadAddress()),
                        Configs.tcp("echo", "round-robin", Configs.nodes(echo.address()))));
        LoggingSetup.apply(config.logging(), null); // what Main.run does before starting the dispatcher
        transport = new Transport(1);
        dispatcher = new Dispatcher(config, null, PolicyRegistry.load(), transport, new ModeListenerFactory());
        dispatcher.start("test-token", false);
    }

    private static ClusterConfig http(String name, String node) {
        return ClusterConfig.builder().name(name).mode(Mode.HTTP).listen("127.0.0.1:0").policy("round-robin")
                .connectTimeoutMs(1_000).connectAttempts(1).nodes(Configs.nodes(node)).build();
    }

    @AfterEach
    void stop() throws IOException {
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
        node.stop(0);
        echo.close();
        AccessLog.drain(5_000); // a late line of this test must not reach the next one's file
        Appender<ILoggingEvent> appender = access.getAppender("ACCESS");
        if (appender != null) {
            appender.stop();
            access.detachAppender(appender);
        }
        access.setLevel(accessLevel);
    }

    @Test
    void everyHttpRequestAndTunnelGetsItsLine() throws Exception {
        assertEquals("HTTP/1.1 200 OK", send("shop", "GET /cart?id=7 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
        assertEquals("HTTP/1.1 404 Not Found",
                send("shop", "GET /missing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
        assertEquals("HTTP/1.1 502 Bad Gateway",
                send("gone", "POST /order HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"));
        assertEquals("HTTP/1.1 400 Bad Request", send("shop", "GET / XTTP/1.1\r\nHost: x\r\n\r\n"));
        try (Socket s = connect("echo")) {
            s.getOutputStream().write("hi".getBytes(StandardCharsets.US_ASCII));
            s.shutdownOutput();
            assertEquals("hi", new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII));
        }

        awaitLine(" \"GET /cart?id=7\" 200 n1 2 ");
        awaitLine(" \"GET /missing\" 404 n1 2 ");
        awaitLine(" \"POST /order\" 502 - 0 ");
        awaitLine(" \"- -\" 400 - - ");
        awaitLine(" tcp echo n1 in=2 out=2 ");
        String lines = Files.readString(accessFile);
        assertEquals(5, lines.lines().count(), lines);
        assertTrue(lines.lines().allMatch(l -> l.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} .*\\d+ms")),
                lines);
    }

    private void awaitLine(String part) {
        Await.until("an access log line with '" + part + "'", () -> {
            try {
                return Files.exists(accessFile) && Files.readString(accessFile).contains(part);
            } catch (IOException e) {
                return false;
            }
        });
    }

    private Socket connect(String cluster) throws IOException {
        InetSocketAddress address = dispatcher.boundAddress(cluster);
        Socket s = new Socket(address.getAddress(), address.getPort());
        s.setSoTimeout(10_000);
        return s;
    }

    /** Sends a raw request and returns the status line of the answer. */
    private String send(String cluster, String request) throws IOException {
        try (Socket s = connect(cluster)) {
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            int end = response.indexOf("\r\n");
            return end < 0 ? response : response.substring(0, end);
        }
    }
}
