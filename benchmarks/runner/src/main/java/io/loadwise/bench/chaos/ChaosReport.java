package io.loadwise.bench.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The arithmetic of the chaos bench over its {@link Outcome}s, and its results: chaos.csv, chaos.json, the README table. */
final class ChaosReport {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ChaosReport() {
    }

    /** Failures among the requests sent in [from, to), by cause, sorted by cause. */
    static Map<String, Long> causes(List<Outcome> outcomes, long fromNanos, long toNanos) {
        Map<String, Long> causes = new TreeMap<>();
        for (Outcome o : outcomes) {
            if (!o.ok() && o.startNanos() >= fromNanos && o.startNanos() < toNanos) {
                causes.merge(o.cause(), 1L, Long::sum);
            }
        }
        return causes;
    }

    private static final Pattern ACCESS_LINE = Pattern.compile(
            "\"GET /work\\?i=(\\d+)\" \\d+ (\\S+) ");

    /**
     * The node of each request in the dispatcher's access log ({@code ... "GET /work?i=17" 502 c - 1000ms}):
     * request number to node name, {@code -} when the dispatcher answered by itself.
     */
    static Map<Long, String> accessLogNodes(List<String> lines) {
        Map<Long, String> nodes = new HashMap<>();
        for (String line : lines) {
            Matcher m = ACCESS_LINE.matcher(line);
            if (m.find()) {
                nodes.put(Long.parseLong(m.group(1)), m.group(2));
            }
        }
        return nodes;
    }

    /** Failures among the requests sent in [from, to), by the node the access log names (see {@link CaseResult}). */
    static Map<String, Long> failuresByNode(List<Outcome> outcomes, Map<Long, String> nodes, long fromNanos, long toNanos) {
        Map<String, Long> byNode = new TreeMap<>();
        for (Outcome o : outcomes) {
            if (!o.ok() && o.startNanos() >= fromNanos && o.startNanos() < toNanos) {
                String node = nodes.get(o.id());
                byNode.merge(node == null ? "no access-log line" : node.equals("-") ? "dispatcher" : node, 1L, Long::sum);
            }
        }
        return byNode;
    }

    /** Failures among the requests sent in [from, to). */
    static long failed(List<Outcome> outcomes, long fromNanos, long toNanos) {
        return causes(outcomes, fromNanos, toNanos).values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Node {@code node}'s share of the answered requests sent in each of {@code seconds} one-second intervals
     * from {@code fromNanos}; {@code null} for a second without answers.
     */
    static List<Double> shareBySecond(List<Outcome> outcomes, String node, long fromNanos, int seconds) {
        long[] hits = new long[seconds];
        long[] all = new long[seconds];
        for (Outcome o : outcomes) {
            long offset = o.startNanos() - fromNanos;
            if (o.ok() && offset >= 0 && offset < seconds * 1_000_000_000L) {
                int second = (int) (offset / 1_000_000_000L);
                all[second]++;
                hits[second] += node.equals(o.node()) ? 1 : 0;
            }
        }
        List<Double> shares = new ArrayList<>(seconds);
        for (int i = 0; i < seconds; i++) {
            shares.add(all[i] == 0 ? null : round3(hits[i] / (double) all[i]));
        }
        return shares;
    }

    /**
     * The share round robin gives a returning node among {@code nodes} equal ones {@code millis} after its
     * readmission (docs/configuration.md, slow start): its weight times f = 0.1 + 0.9 t / slowStartMs (at most
     * 1) against the others' full weights, f / (f + nodes - 1).
     */
    static double expectedShare(double millis, int slowStartMs, int nodes) {
        double f = Math.min(1.0, 0.1 + 0.9 * millis / slowStartMs);
        return f / (f + nodes - 1);
    }

    /** {@link #expectedShare} at the middle of each of {@code seconds} seconds. */
    static List<Double> expectedRamp(int seconds, int slowStartMs, int nodes) {
        List<Double> shares = new ArrayList<>(seconds);
        for (int i = 0; i < seconds; i++) {
            shares.add(round3(expectedShare(i * 1_000 + 500, slowStartMs, nodes)));
        }
        return shares;
    }

    static double round3(double x) {
        return Math.round(x * 1_000) / 1_000.0;
    }

    /** {@code HTTP 502: 3, connection reset: 1}, or {@code -} for none. */
    static String describe(Map<String, Long> counts) {
        String text = counts.entrySet().stream().filter(e -> e.getValue() != 0)
                .map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", "));
        return text.isEmpty() ? "-" : text;
    }

    private static String ms(Long millis) {
        return millis == null ? "-" : String.format(Locale.ROOT, "%.1f s", millis / 1_000.0);
    }

    private static String shares(List<Double> shares) {
        return shares.isEmpty() ? "-" : shares.stream().map(s -> s == null ? "?" : String.format(Locale.ROOT, "%.2f", s))
                .collect(Collectors.joining(" "));
    }

    /**
     * {@code pass}, or what the case got wrong. A fault case passes when the node left selection and came back
     * and no request failed once it was out (failures of requests sent to it before, or in flight to it, are
     * expected without retries and reported, not judged); a soak case passes when no request failed after the
     * warm-up.
     */
    static String verdict(CaseResult r) {
        List<String> problems = new ArrayList<>();
        if (r.failedByPhase().containsKey("soak")) {
            long failed = r.failedByPhase().get("soak");
            if (failed != 0) {
                problems.add(failed + " failed");
            }
        } else {
            if (r.toOutMs() == null) {
                problems.add("never left selection");
            }
            if (r.toReadmissionMs() == null) {
                problems.add("never came back");
            }
            long after = r.failedByPhase().getOrDefault("out", 0L) + r.failedByPhase().getOrDefault("return", 0L);
            if (after != 0) {
                problems.add(after + " failed while a healthy node served");
            }
        }
        return problems.isEmpty() ? "pass" : "FAIL: " + String.join("; ", problems);
    }

    /** The results table, one row per case (Markdown). */
    static String table(List<CaseResult> results) {
        StringBuilder md = new StringBuilder("| case | load | sent | failed | failed by cause | failed at node | failed by phase"
                + " | out after | out by | back after | ramp (share per s) | expected ramp | verdict | load avg | notes |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (CaseResult r : results) {
            md.append("| ").append(r.name()).append(" | ").append(String.format(Locale.ROOT, "%.0f s, %.0f req/s",
                    r.seconds(), r.seconds() == 0 ? 0 : r.sent() / r.seconds())).append(" | ").append(r.sent())
                    .append(" | ").append(r.failed()).append(" | ").append(describe(r.failedByCause())).append(" | ")
                    .append(describe(r.failedByNode())).append(" | ").append(describe(r.failedByPhase())).append(" | ").append(ms(r.toOutMs())).append(" | ")
                    .append(r.outBy() == null ? "-" : r.outBy()).append(" | ").append(ms(r.toReadmissionMs()))
                    .append(" | ").append(shares(r.rampShare())).append(" | ").append(shares(r.rampExpected()))
                    .append(" | ").append(verdict(r)).append(" | ").append(r.loadAverage()).append(" | ").append(r.note() == null ? "" : r.note()).append(" |\n");
        }
        return md.toString();
    }

    /** One row per case; causes and ramps as {@code ;}-separated lists inside a field. */
    static String csv(List<CaseResult> results) {
        StringBuilder csv = new StringBuilder("case,seconds,sent,failed,failed_by_cause,failed_by_node,failed_warm_up,failed_fault,"
                + "failed_out,failed_return,failed_soak,verdict,to_out_ms,out_by,to_readmission_ms,to_first_answer_ms,ramp_share,ramp_expected,load_average\n");
        for (CaseResult r : results) {
            csv.append(r.name()).append(',').append(String.format(Locale.ROOT, "%.1f", r.seconds())).append(',')
                    .append(r.sent()).append(',').append(r.failed()).append(',')
                    .append(quote(r.failedByCause().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                            .collect(Collectors.joining(";")))).append(',')
                    .append(quote(r.failedByNode().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                            .collect(Collectors.joining(";"))));
            for (String phase : List.of("warm-up", "fault", "out", "return", "soak")) {
                Long n = r.failedByPhase().get(phase);
                csv.append(',').append(n == null ? "" : n.toString());
            }
            csv.append(',').append(quote(verdict(r)));
            csv.append(',').append(blank(r.toOutMs())).append(',').append(r.outBy() == null ? "" : quote(r.outBy()))
                    .append(',').append(blank(r.toReadmissionMs())).append(',').append(blank(r.toFirstAnswerMs()))
                    .append(',').append(list(r.rampShare())).append(',').append(list(r.rampExpected())).append(',')
                    .append(quote(r.loadAverage())).append('\n');
        }
        return csv.toString();
    }

    private static String blank(Long value) {
        return value == null ? "" : value.toString();
    }

    private static String list(List<Double> values) {
        return values.stream().map(v -> v == null ? "" : v.toString()).collect(Collectors.joining(";"));
    }

    /** RFC 4180: a field with a comma, quote or line break goes in quotes, its quotes doubled. */
    static String quote(String field) {
        return field.contains(",") || field.contains("\"") || field.contains("\n")
                ? "\"" + field.replace("\"", "\"\"") + "\"" : field;
    }

    static String json(Map<String, Object> run, List<CaseResult> results) throws IOException {
        Map<String, Object> all = new LinkedHashMap<>(run);
        all.put("cases", results);
        return JSON.writeValueAsString(all);
    }
}
