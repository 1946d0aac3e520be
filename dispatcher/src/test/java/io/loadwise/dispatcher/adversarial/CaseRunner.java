package io.loadwise.dispatcher.adversarial;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Runs one corpus case: a raw node with the case's script, the real listener in front of it, then the
 * client steps in order (consecutive {@code send} lines are one write), then the {@link NodeChecks}.
 */
final class CaseRunner {

    private final CorpusCase c;
    private final CaseContext ctx;
    private final List<Session> clients = new ArrayList<>();
    private RawNode node;
    private ProxyUnderTest proxy;
    private Session current;

    /** One client connection: what waits to be written and the last response read. */
    private static final class Session {
        final int number;
        final RawClient client;
        final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        ClientResponse last;

        Session(int number, RawClient client) {
            this.number = number;
            this.client = client;
        }
    }

    private CaseRunner(CorpusCase c, CaseContext ctx) {
        this.c = c;
        this.ctx = ctx;
    }

    static void run(CorpusCase c, CaseContext ctx) throws Exception {
        new CaseRunner(c, ctx).run();
    }

    private void run() throws Exception {
        node = ctx.node(new TextNodeScript(c.nodeScript()));
        node.expectProxyHeader(c.cluster().sendsProxyHeader());
        proxy = ctx.proxy(c.cluster(), node);
        for (Directive step : c.clientSteps()) {
            if (!step.key().equals("send") && !step.key().equals("client")) {
                flush();
            }
            step(step);
        }
        flush();
        NodeChecks.verify(node, c.nodeChecks(), c.id());
        verifyAccessLog();
    }

    /**
     * The access log's lines of the case's connections: exactly the {@code log:} lines when it has any (after its
     * clients closed, so a request the close ends is logged too), and every state documented in any case.
     */
    private void verifyAccessLog() throws InterruptedException {
        List<Integer> ports = clients.stream().map(s -> s.client.localPort()).toList();
        if (c.accessLog().isEmpty()) {
            List<com.fasterxml.jackson.databind.JsonNode> lines = AccessLogTap.lines(ports);
            AccessLogTap.verify(c.id(), lines, lines.stream().map(AccessLogTap::summary).toList());
            return;
        }
        for (Session s : clients) {
            s.client.close();
        }
        AccessLogTap.verify(c.id(), AccessLogTap.await(ports, c.accessLog().size(), 3_000), c.accessLog());
        AccessLogTap.checked(c.accessLog());
    }

    private void step(Directive d) throws Exception {
        switch (d.key()) {
            case "client" -> {
                flush();
                current = d.value().trim().equals("new") ? open() : clients.get(Integer.parseInt(d.value().trim()) - 1);
            }
            case "send" -> session().pending.writeBytes(Escapes.decode(d.value()));
            case "expect" -> expect(d, StatusExpectation.parse(d.value()), false);
            case "expect-to-head" -> expect(d, StatusExpectation.parse(d.value()), true);
            case "expect-cut" -> expectCut(d);
            case "expect-broken" -> expectBroken(d);
            case "header" -> {
                Field f = Field.of(d);
                List<String> values = response(d).values(f.name);
                if (!values.equals(List.of(f.value))) {
                    failAt(d, "response header " + f.name + " is " + values + ", expected exactly [" + f.value + "]");
                }
            }
            case "header-present" -> {
                if (response(d).values(d.value().trim()).isEmpty()) {
                    failAt(d, "response has no " + d.value().trim() + " header");
                }
            }
            case "no-header" -> {
                List<String> values = response(d).values(d.value().trim());
                if (!values.isEmpty()) {
                    failAt(d, "response has " + d.value().trim() + ": " + values);
                }
            }
            case "header-matches" -> {
                Field f = Field.regex(d);
                String joined = String.join(", ", response(d).values(f.name));
                if (!Pattern.compile(f.value).matcher(joined).matches()) {
                    failAt(d, "response header " + f.name + " is '" + joined + "', expected to match " + f.value);
                }
            }
            case "body" -> {
                byte[] expected = Escapes.decode(d.value());
                if (!Arrays.equals(expected, response(d).body())) {
                    failAt(d, "response body is '" + Escapes.show(response(d).body()) + "'");
                }
            }
            case "body-contains" -> {
                String body = RequestParser.latin1(response(d).body());
                if (!body.contains(Escapes.decodeToString(d.value()))) {
                    failAt(d, "response body is '" + Escapes.show(body) + "'");
                }
            }
            case "trailer" -> {
                Field f = Field.of(d);
                List<String> values = response(d).trailerValues(f.name);
                if (!values.equals(List.of(f.value))) {
                    failAt(d, "response trailer " + f.name + " is " + values + ", expected exactly [" + f.value + "]");
                }
            }
            case "no-trailer" -> {
                List<String> values = response(d).trailerValues(d.value().trim());
                if (!values.isEmpty()) {
                    failAt(d, "response trailer " + d.value().trim() + " reached the client: " + values);
                }
            }
            case "raw" -> {
                byte[] expected = Escapes.decode(d.value());
                byte[] got = readOrFail(d, () -> session().client.readExactly(expected.length));
                if (!Arrays.equals(expected, got)) {
                    failAt(d, "read '" + Escapes.show(got) + "'");
                }
            }
            case "closed" -> expectClosed(d);
            case "hang-up" -> {
                session().client.close(); // the client leaves: the proxy sees its connection close
                current = null;
            }
            case "await-node" -> NodeChecks.awaitRequests(node, Integer.parseInt(d.value().trim()), c.id());
            default -> throw new IllegalStateException("not a client step: " + d);
        }
    }

    private void expect(Directive d, StatusExpectation expected, boolean toHead) throws Exception {
        Session s = session();
        if (expected.none()) {
            ByteArrayOutputStream extra = new ByteArrayOutputStream();
            if (!s.client.closed(extra)) {
                failAt(d, "expected the connection to close without a response; it stayed open for "
                        + c.readTimeoutMs() + " ms");
            }
            if (extra.size() > 0) {
                failAt(d, "expected no response, got '" + Escapes.show(extra.toByteArray()) + "'");
            }
            return;
        }
        ClientResponse response = readOrFail(d, () -> s.client.read(toHead));
        s.last = response;
        String mismatch = expected.mismatch(response.statusLine());
        if (mismatch != null) {
            failAt(d, mismatch + ", got " + response);
        }
        if (!response.complete()) {
            failAt(d, "response cut off: " + response);
        }
    }

    private void expectCut(Directive d) throws Exception {
        Session s = session();
        ClientResponse response = readOrFail(d, () -> s.client.read(false));
        s.last = response;
        if (response.status() != Integer.parseInt(d.value().trim())) {
            failAt(d, "expected a " + d.value().trim() + " cut off mid-body, got " + response);
        }
        if (response.complete()) {
            failAt(d, "expected the body to be cut off, got it whole: " + response);
        }
    }

    /**
     * The proxy must not pass a broken node response off as a good one: a 5xx, a response cut mid-body, or
     * the connection closed without a response all pass; a complete non-5xx response fails.
     */
    private void expectBroken(Directive d) throws IOException {
        Session s = session();
        ClientResponse response;
        try {
            response = s.client.read(false);
        } catch (EOFException e) {
            return; // closed without a response
        } catch (SocketTimeoutException e) {
            failAt(d, "nothing (more) arrived within " + c.readTimeoutMs() + " ms");
            return;
        }
        s.last = response;
        if (response.complete() && response.status() < 500) {
            failAt(d, "a broken node response reached the client as a good one: " + response);
        }
    }

    private void expectClosed(Directive d) throws IOException {
        ByteArrayOutputStream extra = new ByteArrayOutputStream();
        if (!session().client.closed(extra)) {
            failAt(d, "expected the proxy to close the client connection; still open after " + c.readTimeoutMs()
                    + " ms" + (extra.size() > 0 ? ", sent '" + Escapes.show(extra.toByteArray()) + "'" : ""));
        }
        if (extra.size() > 0) {
            failAt(d, "the proxy sent more bytes before closing: '" + Escapes.show(extra.toByteArray()) + "'");
        }
    }

    private interface Read<T> {
        T read() throws IOException;
    }

    private <T> T readOrFail(Directive d, Read<T> read) throws IOException {
        try {
            return read.read();
        } catch (SocketTimeoutException e) {
            failAt(d, "nothing (more) arrived within " + c.readTimeoutMs() + " ms");
        } catch (EOFException e) {
            failAt(d, "the proxy closed the connection without a response");
        }
        throw new AssertionError("unreachable");
    }

    private ClientResponse response(Directive d) {
        ClientResponse last = session().last;
        if (last == null) {
            failAt(d, "no response was read on client " + session().number + " before this check");
        }
        return last;
    }

    private Session session() {
        if (current == null) {
            try {
                current = open();
            } catch (IOException e) {
                throw new AssertionError("cannot connect to the proxy: " + e, e);
            }
        }
        return current;
    }

    private Session open() throws IOException {
        Session s = new Session(clients.size() + 1, ctx.client(proxy, c.readTimeoutMs()));
        clients.add(s);
        return s;
    }

    private void flush() throws IOException {
        for (Session s : clients) {
            if (s.pending.size() > 0) {
                byte[] bytes = s.pending.toByteArray();
                s.pending.reset();
                try {
                    s.client.write(bytes);
                } catch (IOException e) {
                    // The proxy may already have closed: what it answered is checked by the next step.
                }
            }
        }
    }

    private void failAt(Directive d, String message) {
        String refused = NodeChecks.refusedByNode(node);
        fail(c.id() + " " + d + ": " + message + (refused == null ? "" : " (" + refused + ")") + "\n  node saw: "
                + NodeChecks.describe(node));
    }

    /** A {@code Name: value} directive value. */
    record Field(String name, String value) {
        /** The value in the corpus byte notation. */
        static Field of(Directive d) {
            Field raw = regex(d);
            return new Field(raw.name, Escapes.decodeToString(raw.value));
        }

        /** The value as written: a Java regular expression, whose backslashes are its own. */
        static Field regex(Directive d) {
            int colon = d.value().indexOf(':');
            return new Field(d.value().substring(0, colon).trim(), d.value().substring(colon + 1).strip());
        }
    }
}
