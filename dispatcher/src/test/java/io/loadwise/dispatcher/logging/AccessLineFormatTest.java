package io.loadwise.dispatcher.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each access log format's exact line for a served request, a refused one and a tunnel. */
class AccessLineFormatTest {

    private static final long START = 1_795_000_000_123L; // 2026-11-18T11:06:40.123Z

    private static AccessRecord served() {
        AccessRecord r = new AccessRecord();
        r.startMillis = START;
        r.client = "10.0.0.7";
        r.clientPort = 51234;
        r.cluster = "shop";
        r.node = "n1";
        r.method = "GET";
        r.target = "/cart?id=\"7\"";
        r.protocol = "HTTP/1.1";
        r.status = 200;
        r.bytesIn = 0;
        r.bytesOut = 1234;
        r.referer = "http://x/";
        r.userAgent = "curl/8.5";
        r.requestId = "req-1";
        r.traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        r.nodeResponseMillis = 9;
        r.totalMillis = 12;
        r.forwardedFor = "203.0.113.9";
        r.listener = "edge";
        r.route = "cart";
        r.policy = "round-robin";
        r.tlsVersion = "TLSv1.3";
        r.sni = "shop.example";
        r.alpn = "http/1.1";
        r.termination = "--";
        r.retries = 1;
        r.headMillis = 0;
        r.queueMillis = 2;
        r.connectMillis = 0;
        return r;
    }

    private static AccessRecord unreadable() {
        AccessRecord r = new AccessRecord();
        r.startMillis = START;
        r.client = "10.0.0.7";
        r.status = 400;
        r.totalMillis = 0;
        return r;
    }

    private static AccessRecord tunnel() {
        AccessRecord r = new AccessRecord();
        r.startMillis = START;
        r.client = "/10.0.0.7:5000";
        r.cluster = "echo";
        r.node = "n2";
        r.protocol = "tcp";
        r.bytesIn = 10;
        r.bytesOut = 20;
        r.totalMillis = 7;
        return r;
    }

    private static String line(String format, AccessRecord r) {
        StringBuilder line = new StringBuilder();
        AccessLineFormat.named(format).append(r, line);
        return line.toString();
    }

    @Test
    void loadwiseIsTheLineOfTheStringForm() {
        assertEquals("10.0.0.7 \"GET /cart?id=\\x227\\x22\" 200 n1 1234 12ms", line("loadwise", served()));
        assertEquals("10.0.0.7 \"- -\" 400 - - 0ms", line("loadwise", unreadable()));
        assertEquals("/10.0.0.7:5000 tcp echo n2 in=10 out=20 7ms", line("loadwise", tunnel()));
    }

    @Test
    void commonAndCombinedAreApaches() {
        assertEquals("10.0.0.7 - - [18/Nov/2026:11:06:40 +0000] \"GET /cart?id=\\x227\\x22 HTTP/1.1\" 200 1234",
                line("common", served()));
        assertEquals("10.0.0.7 - - [18/Nov/2026:11:06:40 +0000] \"GET /cart?id=\\x227\\x22 HTTP/1.1\" 200 1234"
                + " \"http://x/\" \"curl/8.5\"", line("combined", served()));
        assertEquals("10.0.0.7 - - [18/Nov/2026:11:06:40 +0000] \"-\" 400 - \"-\" \"-\"",
                line("combined", unreadable()));
        assertEquals("/10.0.0.7:5000 - - [18/Nov/2026:11:06:40 +0000] \"- - tcp\" - 20", line("common", tunnel()));
    }

    @Test
    void jsonHasEveryFieldAndNullForTheUnknown() {
        assertEquals("{\"time\":\"2026-11-18T11:06:40.123Z\",\"client\":\"10.0.0.7\",\"client_port\":51234,"
                + "\"forwarded_for\":\"203.0.113.9\",\"listener\":\"edge\",\"route\":\"cart\",\"cluster\":\"shop\","
                + "\"policy\":\"round-robin\",\"node\":\"n1\",\"method\":\"GET\",\"target\":\"/cart?id=\\\"7\\\"\","
                + "\"protocol\":\"HTTP/1.1\",\"tls_version\":\"TLSv1.3\",\"sni\":\"shop.example\",\"alpn\":\"http/1.1\","
                + "\"status\":200,\"termination\":\"--\",\"bytes_in\":0,\"bytes_out\":1234,\"retries\":1,"
                + "\"referer\":\"http://x/\",\"user_agent\":\"curl/8.5\",\"request_id\":\"req-1\","
                + "\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"th\":0,\"tw\":2,\"tc\":0,\"tr\":9,\"ta\":12}",
                line("json", served()));
        assertEquals("{\"time\":\"2026-11-18T11:06:40.123Z\",\"client\":\"10.0.0.7\",\"client_port\":null,"
                + "\"forwarded_for\":null,\"listener\":null,\"route\":null,\"cluster\":null,\"policy\":null,"
                + "\"node\":null,\"method\":null,\"target\":null,\"protocol\":null,\"tls_version\":null,\"sni\":null,"
                + "\"alpn\":null,\"status\":400,\"termination\":null,\"bytes_in\":null,\"bytes_out\":null,"
                + "\"retries\":null,\"referer\":null,\"user_agent\":null,\"request_id\":null,\"trace_id\":null,"
                + "\"th\":null,\"tw\":null,\"tc\":null,\"tr\":null,\"ta\":0}",
                line("json", unreadable()));
    }

    @Test
    void aTemplateFillsEachPlaceholderAndEscapesTexts() {
        assertEquals("10.0.0.7 -- 200 n1 th=0 tw=2 tc=0 tr=9 ta=12 100% \"GET /cart?id=\\x227\\x22\" TLSv1.3 shop.example",
                line("%{client} %{termination} %{status} %{node} th=%{th} tw=%{tw} tc=%{tc} tr=%{tr} ta=%{ta} 100%% "
                        + "\"%{method} %{target}\" %{tls_version} %{sni}", served()));
        assertEquals("- - - 400 -", line("%{node} %{termination} %{tw} %{status} %{sni}", unreadable()));
        AccessRecord hostile = served();
        hostile.userAgent = "a\r\nforged 200\u0000";
        assertEquals("[a\\x0d\\x0aforged 200\\x00]", line("[%{user_agent}]", hostile));
        StringBuilder every = new StringBuilder();
        for (String field : io.loadwise.dispatcher.config.AccessLogTemplate.FIELDS) {
            every.append("%{").append(field).append("} ");
        }
        String all = line(every.toString(), served());
        assertEquals(io.loadwise.dispatcher.config.AccessLogTemplate.FIELDS.size() + 1, all.split(" ", -1).length,
                "one value per field (none of these has a space): " + all);
        assertFalse(all.contains("%{"), all);
    }

    @Test
    void jsonKeepsHostileTextOnOneLineAndReadsBackTheSame() throws Exception {
        AccessRecord r = served();
        r.target = "/a\"b\\c\r\n{\u0000\u007f\u00e9\u2028\ud800";
        r.userAgent = "\u001b[31mred";
        String line = line("json", r);
        assertEquals(1, line.lines().count());
        assertEquals(line.length(), line.chars().filter(c -> c >= 0x20 && c < 0x7f).count(), "pure printable ASCII");
        JsonNode back = new ObjectMapper().readTree(line);
        assertEquals(r.target, back.get("target").asText());
        assertEquals(r.userAgent, back.get("user_agent").asText());
    }

    @Test
    void drainWaitsUntilEveryQueuedLineIsWrittenAndFlushed() {
        List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.atomic.AtomicInteger flushedAt = new java.util.concurrent.atomic.AtomicInteger(-1);
        AccessLogWriter writer = new AccessLogWriter(1_000, AccessLineFormat.named("loadwise"), lines::add);
        writer.flushWith(() -> flushedAt.set(lines.size()));
        assertTrue(writer.drain(10), "nothing to wait for before the writer runs");
        writer.start();
        for (int i = 0; i < 500; i++) {
            writer.offer(served());
        }
        assertTrue(writer.drain(5_000));
        assertEquals(500, lines.size(), "every line written");
        assertEquals(500, flushedAt.get(), "and flushed after the last");
        assertEquals(0, writer.dropped());
    }

    @Test
    void aFullQueueDropsAndCountsWithoutBlocking() throws Exception {
        List<String> lines = new ArrayList<>();
        AccessLogWriter writer = new AccessLogWriter(2, AccessLineFormat.named("loadwise"), lines::add);
        writer.offer(served()); // not started: nothing drains the queue
        writer.offer(served());
        writer.offer(served());
        writer.offer(served());
        assertEquals(2, writer.dropped());
        assertEquals(List.of(), lines);
    }
}
