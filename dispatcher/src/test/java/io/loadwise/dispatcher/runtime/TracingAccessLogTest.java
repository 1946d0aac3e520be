package io.loadwise.dispatcher.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.loadwise.dispatcher.config.AccessLogConfig;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.LoggingConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.TracingConfig;
import io.loadwise.dispatcher.logging.AccessLog;
import io.loadwise.dispatcher.logging.LoggingSetup;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.dispatcher.tracing.Tracing;
import io.loadwise.policy.PolicyRegistry;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The JSON access log's {@code trace_id} is the trace the proxy's spans belong to, also when it replaced the client's. */
class TracingAccessLogTest {

    @TempDir
    Path dir;

    private final Logger access = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(AccessLog.LOGGER);
    private final Level accessLevel = access.getLevel();
    private OtlpReceiver receiver;
    private Transport transport;
    private HttpServer node;
    private Dispatcher dispatcher;

    @AfterEach
    void stop() {
        Tracing.stop();
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
        if (node != null) {
            node.stop(0);
        }
        if (receiver != null) {
            receiver.close();
        }
        Appender<ILoggingEvent> appender = access.getAppender("ACCESS");
        if (appender != null) {
            appender.stop();
            access.detachAppender(appender);
        }
        access.setLevel(accessLevel);
    }

    @Test
    void theLoggedTraceIdIsTheProxysTrace() throws Exception {
        receiver = new OtlpReceiver();
        node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write("ok".getBytes(StandardCharsets.UTF_8));
            exchange.close();
        });
        node.start();
        Path accessFile = dir.resolve("access.json");
        ClusterConfig shop = ClusterConfig.builder().name("shop").mode(Mode.HTTP).listen("127.0.0.1:0")
                .policy("round-robin").nodes(Configs.nodes("127.0.0.1:" + node.getAddress().getPort())).build();
        LoadwiseConfig config = new LoadwiseConfig(Configs.config().admin(),
                new LoggingConfig(null, null, null, new AccessLogConfig(accessFile.toString(), null)), List.of(shop));
        LoggingSetup.apply(config.logging(), null);
        Tracing.start(new TracingConfig(receiver.endpoint(), 1.0));
        transport = new Transport(1);
        dispatcher = new Dispatcher(config, null, PolicyRegistry.load(), transport, new ModeListenerFactory());
        dispatcher.start("test-token", false);

        InetSocketAddress address = dispatcher.boundAddress("shop");
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("GET /x HTTP/1.1\r\nHost: x\r\ntraceparent: 00-not-a-trace\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            assertTrue(new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200"));
        }
        Await.until("the spans and the log line", () -> {
            Tracing.flush(Duration.ofSeconds(1));
            try {
                return receiver.spans.size() >= 2 && Files.exists(accessFile) && !Files.readAllLines(accessFile).isEmpty();
            } catch (IOException e) {
                return false;
            }
        });
        Span server = receiver.ofKind(Span.SpanKind.SPAN_KIND_SERVER).get(0);
        JsonNode line = new ObjectMapper().readTree(Files.readAllLines(accessFile).get(0));
        assertEquals(HexFormat.of().formatHex(server.getTraceId().toByteArray()), line.get("trace_id").asText(), line.toString());
    }
}
