package io.loadwise.dispatcher.adversarial;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;

/**
 * What the raw node must have seen once the client steps are done. First the node is let settle (the
 * expected requests arrived, then no byte for {@link #QUIET_MS}, all bounded), then every check runs.
 * Always checked as well: the strict parser never refused what the proxy sent.
 */
final class NodeChecks {

    /** No new byte at the node for this long means the proxy has sent what it was going to send. */
    static final int QUIET_MS = 100;
    static final int SETTLE_DEADLINE_MS = 3_000;

    private NodeChecks() {
    }

    static void verify(RawNode node, List<Directive> checks, String caseId) {
        int expected = 0;
        for (Directive d : checks) {
            if (d.key().equals("node-requests")) {
                expected = range(d.value())[0];
            }
        }
        settle(node, expected);
        String refused = refusedByNode(node);
        if (refused != null) {
            fail(caseId + ": " + refused + "\n  node saw: " + describe(node));
        }
        List<String> lines = new ArrayList<>();
        boolean linesChecked = false;
        for (Directive d : checks) {
            if (d.key().equals("node-line")) {
                lines.add(Escapes.decodeToString(d.value()));
                linesChecked = true;
            } else {
                check(node, d, caseId);
            }
        }
        if (linesChecked) {
            List<String> actual = node.requests().stream().map(NodeRequest::requestLine).toList();
            if (!actual.equals(lines)) {
                fail(caseId + ": node request lines " + actual + ", expected " + lines + "\n  node saw: "
                        + describe(node));
            }
        }
    }

    private static void check(RawNode node, Directive d, String caseId) {
        String problem = switch (d.key()) {
            case "node-requests" -> {
                int count = node.requests().size();
                int[] range = range(d.value());
                yield count >= range[0] && count <= range[1] ? null : "node parsed " + count + " requests";
            }
            case "node-never-line" -> {
                String needle = Escapes.decodeToString(d.value());
                yield node.requests().stream().anyMatch(r -> r.requestLine().contains(needle))
                        ? "a request line at the node contains '" + needle + "'" : null;
            }
            case "node-never-bytes" -> {
                String needle = Escapes.decodeToString(d.value());
                yield node.connections().stream()
                        .anyMatch(c -> RequestParser.latin1(c.received()).contains(needle))
                        ? "the node received '" + Escapes.show(needle) + "'" : null;
            }
            case "node-conns" -> {
                List<Integer> expected = Arrays.stream(d.value().split(",")).map(String::trim).map(Integer::valueOf)
                        .toList();
                List<Integer> actual = node.requests().stream().map(NodeRequest::connection).toList();
                yield actual.equals(expected) ? null : "requests came on node connections " + actual;
            }
            case "node-closed" -> closed(node, d.value().trim());
            case "node-proxy-header-matches" -> { // every node connection's PROXY header, read before its requests
                java.util.regex.Pattern header = java.util.regex.Pattern.compile(d.value().trim());
                yield node.connections().stream().filter(c -> c.proxyHeader == null
                        || !header.matcher(c.proxyHeader).matches()).map(c -> "connection " + c.index + " started with "
                        + c.proxyHeader).findFirst().orElse(null);
            }
            default -> requestCheck(request(node, d), d);
        };
        if (problem != null) {
            fail(caseId + " " + d + ": " + problem + "\n  node saw: " + describe(node));
        }
    }

    /**
     * A {@code node-requests} value: {@code N}, or {@code N-M} where the proxy may or may not have
     * forwarded a head before it found the error (a race with the node connection).
     */
    static int[] range(String value) {
        String v = value.trim();
        int dash = v.indexOf('-');
        int min = Integer.parseInt(dash < 0 ? v : v.substring(0, dash).trim());
        int max = dash < 0 ? min : Integer.parseInt(v.substring(dash + 1).trim());
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("node-requests is N or N-M with N <= M: " + value);
        }
        return new int[] {min, max};
    }

    private static String requestCheck(NodeRequest r, Directive d) {
        if (r == null && d.key().equals("node-complete") && !Boolean.parseBoolean(d.value().trim())) {
            return null; // a request that never reached the node did not reach it complete either
        }
        if (r == null) {
            return "the node has no request " + d.requestOrFirst();
        }
        return switch (d.key()) {
            case "node-header" -> {
                CaseRunner.Field f = CaseRunner.Field.of(d);
                List<String> values = r.values(f.name());
                yield values.equals(List.of(f.value())) ? null
                        : "header " + f.name() + " is " + values + ", expected exactly [" + f.value() + "]";
            }
            case "node-header-matches" -> {
                CaseRunner.Field f = CaseRunner.Field.regex(d);
                String joined = String.join(", ", r.values(f.name()));
                yield Pattern.compile(f.value()).matcher(joined).matches() ? null
                        : "header " + f.name() + " is '" + joined + "', expected to match " + f.value();
            }
            case "node-no-header" -> r.values(d.value().trim()).isEmpty() ? null
                    : "header " + d.value().trim() + " reached the node: " + r.values(d.value().trim());
            case "node-header-lacks" -> {
                CaseRunner.Field f = CaseRunner.Field.of(d);
                yield r.values(f.name()).stream().anyMatch(v -> v.contains(f.value()))
                        ? "header " + f.name() + " contains '" + f.value() + "': " + r.values(f.name()) : null;
            }
            case "node-body" -> bytes("body", r.body(), d);
            case "node-raw-body" -> bytes("raw body", r.rawBody(), d);
            case "node-raw" -> bytes("request", r.raw(), d);
            case "node-framing" -> r.framing().equals(d.value().trim()) ? null : "framing is " + r.framing();
            case "node-trailer" -> {
                CaseRunner.Field f = CaseRunner.Field.of(d);
                List<String> values = r.trailerValues(f.name());
                yield values.equals(List.of(f.value())) ? null
                        : "trailer " + f.name() + " is " + values + ", expected exactly [" + f.value() + "]";
            }
            case "node-no-trailer" -> r.trailerValues(d.value().trim()).isEmpty() ? null
                    : "trailer " + d.value().trim() + " reached the node";
            case "node-complete" -> r.complete() == Boolean.parseBoolean(d.value().trim()) ? null
                    : "request complete is " + r.complete();
            default -> throw new IllegalStateException("not a node check: " + d);
        };
    }

    private static String bytes(String what, byte[] actual, Directive d) {
        byte[] expected = Escapes.decode(d.value());
        return Arrays.equals(expected, actual) ? null : what + " is '" + Escapes.show(actual) + "'";
    }

    /**
     * {@code all}: every connection that got a request (none is fine: then nothing reached the node);
     * otherwise a comma list of connection numbers.
     */
    private static String closed(RawNode node, String which) {
        List<Integer> wanted = new ArrayList<>();
        if (which.equals("all")) {
            node.requests().forEach(r -> {
                if (!wanted.contains(r.connection())) {
                    wanted.add(r.connection());
                }
            });
        } else {
            Arrays.stream(which.split(",")).map(String::trim).map(Integer::valueOf).forEach(wanted::add);
        }
        boolean done = poll(SETTLE_DEADLINE_MS, () -> wanted.stream().allMatch(i -> i <= node.connections().size()
                && node.connections().get(i - 1).closedByProxy()));
        return done ? null : "node connections " + wanted + " not all closed by the proxy within "
                + SETTLE_DEADLINE_MS + " ms: " + node.connections();
    }

    private static NodeRequest request(RawNode node, Directive d) {
        List<NodeRequest> requests = node.requests();
        int n = d.requestOrFirst();
        return n <= requests.size() ? requests.get(n - 1) : null;
    }

    /** Why the strict node refused what the proxy sent it, or {@code null} when it never did. */
    static String refusedByNode(RawNode node) {
        if (node == null) {
            return null;
        }
        for (NodeConnection connection : node.connections()) {
            if (connection.malformed() != null) {
                return "the proxy sent the node a request a strict HTTP/1.1 server refuses: " + connection.malformed();
            }
        }
        return null;
    }

    /** Waits (bounded) for {@code count} request heads; a case step. */
    static void awaitRequests(RawNode node, int count, String caseId) {
        if (!poll(SETTLE_DEADLINE_MS, () -> node.requests().size() >= count)) {
            fail(caseId + ": the node did not get " + count + " requests within " + SETTLE_DEADLINE_MS
                    + " ms\n  node saw: " + describe(node));
        }
    }

    /**
     * Waits until the node has the expected requests, each complete or on a closed connection, and then
     * no new byte for {@link #QUIET_MS}; all of it bounded, the checks report what is missing.
     */
    private static void settle(RawNode node, int expectedRequests) {
        long deadline = System.nanoTime() + SETTLE_DEADLINE_MS * 1_000_000L;
        poll(SETTLE_DEADLINE_MS, () -> node.requests().size() >= expectedRequests && node.requests().stream()
                .allMatch(r -> r.complete() || node.connections().get(r.connection() - 1).closed()));
        long lastCount = node.receivedCount();
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < QUIET_MS * 1_000_000L && System.nanoTime() < deadline) {
            pause();
            long count = node.receivedCount();
            if (count != lastCount) {
                lastCount = count;
                quietSince = System.nanoTime();
            }
        }
    }

    static boolean poll(long timeoutMs, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            pause();
        }
        return true;
    }

    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The node's requests and connections, for failure messages. */
    static String describe(RawNode node) {
        if (node == null) {
            return "(no node)";
        }
        StringBuilder s = new StringBuilder();
        List<NodeRequest> requests = node.requests();
        s.append(requests.size()).append(" request(s)");
        for (NodeRequest r : requests) {
            s.append("\n    ").append(r);
        }
        for (NodeConnection c : node.connections()) {
            s.append("\n    ").append(c);
            if (c.malformed() != null) {
                s.append(" bytes: ").append(Escapes.show(new String(c.received(), StandardCharsets.ISO_8859_1)));
            }
        }
        return s.toString();
    }
}
