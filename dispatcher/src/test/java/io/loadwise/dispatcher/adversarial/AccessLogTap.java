package io.loadwise.dispatcher.adversarial;

import static org.junit.jupiter.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AppenderBase;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadwise.dispatcher.config.AccessLogConfig;
import io.loadwise.dispatcher.config.LoggingConfig;
import io.loadwise.dispatcher.logging.AccessLog;
import io.loadwise.dispatcher.logging.LoggingSetup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * The access log in JSON, as the dispatcher writes it, kept in memory while the suite runs: every case's lines are
 * told apart by the client ports of its connections ({@code client_port}), so a late line of one case is never
 * taken for another's.
 */
final class AccessLogTap {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> LINES = java.util.Collections.synchronizedList(new ArrayList<>());
    /** Lines before this index are earlier cases': an ephemeral client port may come round again. */
    private static volatile int caseStart;
    private static Appender<ILoggingEvent> tap;
    private static Level levelBefore;
    private static Path file;
    /** The states whose lines some case checked exactly. */
    private static final java.util.Set<String> CHECKED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private AccessLogTap() {
    }

    /** Turns the access log on in JSON into memory; undone by {@link #stop}. */
    static synchronized void start() throws IOException {
        Logger access = logger();
        levelBefore = access.getLevel();
        file = Files.createTempFile("adversarial-access", ".log");
        LoggingSetup.apply(new LoggingConfig(null, null, null, new AccessLogConfig(file.toString(), "json")), null);
        Appender<ILoggingEvent> written = access.getAppender("ACCESS");
        written.stop();
        access.detachAppender(written);
        tap = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                LINES.add(event.getFormattedMessage());
            }
        };
        tap.setContext(access.getLoggerContext());
        tap.setName("ADVERSARIAL");
        tap.start();
        access.addAppender(tap);
    }

    static synchronized void stop() throws IOException {
        Logger access = logger();
        if (tap != null) {
            tap.stop();
            access.detachAppender(tap);
            tap = null;
        }
        access.setLevel(levelBefore);
        access.setAdditive(true);
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    private static Logger logger() {
        return ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(AccessLog.LOGGER);
    }

    /** A case starts: only lines written from now on are its. */
    static void caseStarted() {
        caseStart = LINES.size();
    }

    /** The lines of requests of this case that came on the client ports {@code ports}, in the order written. */
    static List<JsonNode> lines(Collection<Integer> ports) {
        List<JsonNode> out = new ArrayList<>();
        List<String> mine;
        synchronized (LINES) {
            mine = new ArrayList<>(LINES.subList(Math.min(caseStart, LINES.size()), LINES.size()));
        }
        for (String line : mine) {
            JsonNode node;
            try {
                node = JSON.readTree(line);
            } catch (IOException e) {
                throw new AssertionError("access log line is not JSON: " + line, e);
            }
            if (ports.contains(node.path("client_port").asInt(-1))) {
                out.add(node);
            }
        }
        return out;
    }

    /**
     * The lines of {@code ports}, once there are {@code count} of them (or the deadline passed) and no more came for
     * 150 ms, so a line too many is seen too.
     */
    static List<JsonNode> await(Collection<Integer> ports, int count, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        List<JsonNode> got = lines(ports);
        while (got.size() < count && System.nanoTime() - deadline < 0) {
            Thread.sleep(10); // polling the async writer, bounded by the deadline
            got = lines(ports);
        }
        long quietUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(150);
        while (System.nanoTime() - quietUntil < 0) {
            Thread.sleep(10);
            List<JsonNode> now = lines(ports);
            if (now.size() != got.size()) {
                got = now;
                quietUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(150);
            }
        }
        return got;
    }

    /** {@code termination status node}, {@code -} for an unknown status or node: what {@code log:} expects. */
    static String summary(JsonNode line) {
        return line.path("termination").asText("null") + " " + text(line.get("status")) + " " + text(line.get("node"));
    }

    private static String text(JsonNode value) {
        return value == null || value.isNull() ? "-" : value.asText();
    }

    /** A case checked lines with these summaries exactly. */
    static void checked(List<String> summaries) {
        for (String e : summaries) {
            CHECKED.add(e.substring(0, 2));
        }
    }

    /** The states whose lines some case checked exactly, so far. */
    static java.util.Set<String> checked() {
        return java.util.Set.copyOf(CHECKED);
    }

    /**
     * Waits for the lines of the clients {@code clients} (closed by now, or they will be) and fails unless their
     * summaries are exactly {@code expected}: what a Java case checks.
     */
    static void expect(String id, List<RawClient> clients, String... expected) throws InterruptedException {
        expectPorts(id, clients.stream().map(RawClient::localPort).toList(), expected);
    }

    /** As {@link #expect}, for the clients on these ports. */
    static void expectPorts(String id, List<Integer> ports, String... expected) throws InterruptedException {
        verify(id, await(ports, expected.length, 3_000), List.of(expected));
        checked(List.of(expected));
    }

    /** Fails unless the summaries of {@code lines} are exactly {@code expected}, in order. */
    static void verify(String id, List<JsonNode> lines, List<String> expected) {
        List<String> got = lines.stream().map(AccessLogTap::summary).toList();
        if (!got.equals(expected)) {
            fail(id + ": access log " + got + ", expected " + expected + "\n  lines: " + lines);
        }
        for (JsonNode line : lines) {
            String state = line.path("termination").asText();
            if (!TerminationTable.documented().contains(state)) {
                fail(id + ": termination state '" + state + "' is not in the table of docs/operations.md: " + line);
            }
        }
    }
}
