package io.loadwise.dispatcher.adversarial;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads a {@code .cases} file (format: {@code README.md} next to the files). Every mistake in a file is
 * reported with its line when the suite starts, so a broken case cannot pass by doing nothing.
 */
final class CorpusReader {

    static final Set<String> NODE_SCRIPT = Set.of("node-reply", "node-after", "node-continue");
    static final Set<String> CLIENT_STEPS = Set.of("send", "expect", "expect-to-head", "expect-cut", "expect-broken",
            "header", "header-present", "no-header", "header-matches", "body", "body-contains", "trailer", "no-trailer",
            "raw", "closed", "client", "await-node", "hang-up");
    static final Set<String> NODE_CHECKS = Set.of("node-requests", "node-line", "node-never-line",
            "node-never-bytes", "node-header", "node-header-matches", "node-no-header", "node-header-lacks",
            "node-body", "node-raw-body", "node-raw", "node-framing", "node-trailer", "node-no-trailer",
            "node-complete", "node-conns", "node-closed", "node-proxy-header-matches");

    private CorpusReader() {
    }

    static List<CorpusCase> read(String group, InputStream in) throws IOException {
        List<CorpusCase> cases = new ArrayList<>();
        Set<String> names = new HashSet<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            Builder current = null;
            String text;
            int lineNumber = 0;
            while ((text = reader.readLine()) != null) {
                lineNumber++;
                String line = text.stripTrailing();
                if (line.isBlank() || line.stripLeading().startsWith("#")) {
                    continue;
                }
                int colon = line.indexOf(':');
                if (colon == 0) {
                    throw error(group, lineNumber, "expected 'key: value' or a bare key, got: " + line);
                }
                String rawKey = (colon < 0 ? line : line.substring(0, colon)).trim();
                String value = colon < 0 ? "" : line.substring(colon + 1);
                value = value.startsWith(" ") ? value.substring(1) : value;
                int index = 0;
                int dot = rawKey.lastIndexOf('.');
                String key = rawKey;
                if (dot > 0 && rawKey.substring(dot + 1).chars().allMatch(Character::isDigit)) {
                    key = rawKey.substring(0, dot);
                    index = Integer.parseInt(rawKey.substring(dot + 1));
                }
                if (key.equals("case")) {
                    if (current != null) {
                        cases.add(current.build());
                    }
                    if (!names.add(value.trim())) {
                        throw error(group, lineNumber, "duplicate case name " + value.trim());
                    }
                    current = new Builder(group, value.trim(), lineNumber);
                    continue;
                }
                if (current == null) {
                    throw error(group, lineNumber, "'" + key + "' before the first 'case:'");
                }
                try {
                    current.add(new Directive(key, index, value, lineNumber));
                } catch (RuntimeException e) {
                    throw error(group, lineNumber, e.getMessage());
                }
            }
            if (current != null) {
                cases.add(current.build());
            }
        }
        return cases;
    }

    private static IllegalArgumentException error(String group, int line, String message) {
        return new IllegalArgumentException(group + ".cases line " + line + ": " + message);
    }

    private static final class Builder {
        private final String group;
        private final String name;
        private final int line;
        private String spec = "";
        private int readTimeoutMs = CaseContext.DEFAULT_READ_TIMEOUT_MS;
        private final ClusterOverrides cluster = new ClusterOverrides();
        private final List<Directive> script = new ArrayList<>();
        private final List<Directive> steps = new ArrayList<>();
        private final List<Directive> checks = new ArrayList<>();
        private final List<String> log = new ArrayList<>();

        Builder(String group, String name, int line) {
            this.group = group;
            this.name = name;
            this.line = line;
        }

        void add(Directive d) {
            String key = d.key();
            if (key.equals("spec")) {
                spec = d.value().trim();
            } else if (key.equals("cluster")) {
                cluster.set(d.value());
            } else if (key.equals("routes")) {
                cluster.routes(d.value().trim());
            } else if (key.equals("rate-limits")) {
                cluster.rateLimits(d.value().trim());
            } else if (key.equals("log")) {
                if (!d.value().trim().matches("[A-Z-]{2} (\\d{3}|-) \\S+")) {
                    throw new IllegalArgumentException("expected 'log: STATE STATUS NODE' (- for none), got: "
                            + d.value());
                }
                log.add(d.value().trim());
            } else if (key.equals("timeout")) {
                readTimeoutMs = Integer.parseInt(d.value().trim());
            } else if (NODE_SCRIPT.contains(key)) {
                validateValue(d);
                script.add(d);
            } else if (CLIENT_STEPS.contains(key)) {
                validateValue(d);
                steps.add(d);
            } else if (NODE_CHECKS.contains(key)) {
                validateValue(d);
                checks.add(d);
            } else {
                throw new IllegalArgumentException("unknown key '" + key + "'");
            }
        }

        /** Decodes what will be decoded at run time, so a bad escape fails when the corpus loads. */
        private static void validateValue(Directive d) {
            switch (d.key()) {
                case "send", "body", "body-contains", "raw", "node-body", "node-raw-body", "node-raw",
                        "node-never-bytes", "node-never-line" -> Escapes.decode(d.value());
                case "node-reply" -> {
                    if (!d.value().equals("none")) {
                        Escapes.decode(d.value());
                    }
                }
                case "node-after" -> NodeScript.After.valueOf(d.value().trim().toUpperCase(java.util.Locale.ROOT));
                case "expect", "expect-to-head" -> StatusExpectation.parse(d.value());
                case "expect-cut", "await-node" -> Integer.parseInt(d.value().trim());
                case "node-requests" -> NodeChecks.range(d.value());
                case "header", "trailer", "node-header", "node-header-lacks", "node-trailer" -> {
                    if (d.value().indexOf(':') <= 0) {
                        throw new IllegalArgumentException(d + ": expected 'Name: value'");
                    }
                    Escapes.decode(d.value());
                }
                case "header-matches", "node-header-matches" -> {
                    if (d.value().indexOf(':') <= 0) {
                        throw new IllegalArgumentException(d + ": expected 'Name: regex'");
                    }
                    java.util.regex.Pattern.compile(CaseRunner.Field.regex(d).value());
                }
                default -> {
                    // free text: checked by the step itself
                }
            }
        }

        CorpusCase build() {
            if (steps.stream().noneMatch(d -> d.key().startsWith("expect") || d.key().equals("hang-up"))) {
                throw new IllegalArgumentException(group + ".cases line " + line + ": case " + name
                        + " expects nothing from the proxy (no 'expect')");
            }
            if (checks.stream().noneMatch(d -> d.key().equals("node-requests"))) {
                throw new IllegalArgumentException(group + ".cases line " + line + ": case " + name
                        + " does not say how many requests the node sees ('node-requests')");
            }
            return new CorpusCase(group, name, line, spec, cluster, List.copyOf(script), List.copyOf(steps),
                    List.copyOf(checks), readTimeoutMs, List.copyOf(log));
        }
    }
}
