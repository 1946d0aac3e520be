package io.loadwise.dispatcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher's package graph, read from the sources of {@code dispatcher/src/main/java}: every reference to
 * {@code io.loadwise.dispatcher.X...} (an import, or a fully qualified name in code; comments and string
 * literals do not count) is an arrow from the file's package to {@code X}. A sub-package counts as its top
 * package ({@code http.codec} is {@code http}). The arrows must (1) form no cycle and (2) point only to a
 * package of a lower or equal layer of {@link #LAYERS}. A package missing from the table fails: place new
 * packages deliberately.
 */
class PackageLayersTest {

    private static final String ROOT = "io.loadwise.dispatcher";

    /** Bottom to top; a package may depend on its own layer and the layers below. */
    private static final List<Set<String>> LAYERS = List.of(
            Set.of("net", "metrics"),
            Set.of("config"),
            Set.of("cluster", "tls", "acme", "logging", "tracing"),
            Set.of("health", "outlier", "monitor", "control", "http", "route", "acquire", "tcp"),
            Set.of("http2", "http3", "registration", "store", "jmx"),
            Set.of("runtime"),
            Set.of("cli"));

    /** Arrows exempt from both checks: none since the http/http2 circle was cut (http names no http2 type). */
    private static final Set<String> KNOWN_CIRCLE = Set.of();

    private static final Pattern REFERENCE = Pattern.compile(
            "\\bio\\s*\\.\\s*loadwise\\s*\\.\\s*dispatcher\\s*\\.\\s*([a-z_][a-z0-9_]*)((?:\\s*\\.\\s*[a-z_][a-z0-9_]*)*)"
                    + "(?:\\s*\\.\\s*([A-Za-z_$][A-Za-z0-9_$]*|\\*))?");
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([a-zA-Z0-9_.]+)\\s*;", Pattern.MULTILINE);

    /** One arrow as found in a file: where, and the reference as written. */
    record Arrow(String from, String to, String file, int line, String reference) {
        String edge() {
            return from + " -> " + to;
        }

        String where() {
            return file + ":" + line + " (" + reference + ")";
        }
    }

    @Test
    void dispatcherPackagesFormLayersWithoutCycles() throws IOException {
        Path sources = Path.of("src/main/java");
        assertTrue(Files.isDirectory(sources.resolve("io/loadwise/dispatcher")),
                "run from the dispatcher module: no " + sources.toAbsolutePath());
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(sources)) {
            for (Path p : (Iterable<Path>) walk.filter(f -> f.toString().endsWith(".java"))::iterator) {
                files.put(sources.relativize(p).toString().replace('\\', '/'),
                        Files.readString(p, StandardCharsets.UTF_8));
            }
        }
        assertTrue(files.size() > 100, "found only " + files.size() + " source files under " + sources);
        List<String> problems = check(files);
        if (!problems.isEmpty()) {
            fail("package layering of dispatcher/src/main/java broken:\n  " + String.join("\n  ", problems));
        }
    }

    // ---- the checker checked: each rule reports, with the file and the reference ----------------------

    @Test
    void anUpwardImportIsReportedWithItsFileAndImport() {
        List<String> problems = check(Map.of(
                "io/loadwise/dispatcher/config/A.java",
                "package io.loadwise.dispatcher.config;\n\nimport io.loadwise.dispatcher.cluster.NodeState;\n"
                        + "class A {}\n"));
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("io/loadwise/dispatcher/config/A.java:3"), problems.get(0));
        assertTrue(problems.get(0).contains("io.loadwise.dispatcher.cluster.NodeState"), problems.get(0));
        assertTrue(problems.get(0).contains("config (layer 1) -> cluster (layer 2)"), problems.get(0));
    }

    @Test
    void aFullyQualifiedNameInCodeCountsButCommentsAndStringsDoNot() {
        List<String> problems = check(Map.of(
                "io/loadwise/dispatcher/config/A.java",
                "package io.loadwise.dispatcher.config;\n/** {@link io.loadwise.dispatcher.runtime.Dispatcher} */\n"
                        + "class A {\n  // io.loadwise.dispatcher.cli.Main\n"
                        + "  String s = \"io.loadwise.dispatcher.store.SharedStore\";\n"
                        + "  void f() { io.loadwise.dispatcher.tls.TlsConfigCheck.check(null, null, null); }\n}\n"));
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("A.java:6"), problems.get(0));
        assertTrue(problems.get(0).contains("io.loadwise.dispatcher.tls.TlsConfigCheck"), problems.get(0));
    }

    @Test
    void aCycleWithinOneLayerIsReported() {
        List<String> problems = check(Map.of(
                "io/loadwise/dispatcher/health/A.java",
                "package io.loadwise.dispatcher.health;\nimport io.loadwise.dispatcher.outlier.B;\nclass A {}\n",
                "io/loadwise/dispatcher/outlier/B.java",
                "package io.loadwise.dispatcher.outlier;\nimport io.loadwise.dispatcher.health.A;\nclass B {}\n"));
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("cycle: health -> outlier -> health"), problems.get(0));
        assertTrue(problems.get(0).contains("health/A.java:2"), problems.get(0));
        assertTrue(problems.get(0).contains("outlier/B.java:2"), problems.get(0));
    }

    @Test
    void aPackageOutsideTheTableIsReportedByName() {
        List<String> problems = check(Map.of(
                "io/loadwise/dispatcher/gadgets/G.java",
                "package io.loadwise.dispatcher.gadgets;\nimport io.loadwise.dispatcher.net.Transport;\nclass G {}\n",
                "io/loadwise/dispatcher/net/T.java",
                "package io.loadwise.dispatcher.net;\nimport io.loadwise.dispatcher.widgets.W;\nclass T {}\n"));
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("'gadgets'") && p.contains("gadgets/G.java")),
                problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("'widgets'") && p.contains("net/T.java:2")),
                problems.toString());
    }

    @Test
    void subPackagesCountAsTheirTopPackage() {
        Map<String, String> files = Map.of(
                "io/loadwise/dispatcher/http/codec/C.java",
                "package io.loadwise.dispatcher.http.codec;\nimport io.loadwise.dispatcher.http2.H;\n"
                        + "import io.loadwise.dispatcher.http.X;\nclass C {}\n",
                "io/loadwise/dispatcher/http2/H.java",
                "package io.loadwise.dispatcher.http2;\nimport io.loadwise.dispatcher.http.codec.C;\nclass H {}\n",
                "io/loadwise/dispatcher/tcp/T.java",
                "package io.loadwise.dispatcher.tcp;\nimport io.loadwise.dispatcher.http2.H;\nclass T {}\n");
        List<String> problems = check(files);
        assertEquals(3, problems.size(), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("http (layer 3) -> http2 (layer 4)")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("tcp (layer 3) -> http2 (layer 4)")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("cycle")), problems.toString());
    }

    // ---- the checker ---------------------------------------------------------------------------------

    /** Every problem of the sources (path relative to the source root, to text); empty when clean. */
    static List<String> check(Map<String, String> files) {
        List<String> problems = new ArrayList<>();
        Map<String, Map<String, Arrow>> graph = new TreeMap<>();
        Set<String> unplaced = new TreeSet<>();
        for (Map.Entry<String, String> file : new TreeMap<>(files).entrySet()) {
            String code = blankCommentsAndLiterals(file.getValue());
            Matcher pkg = PACKAGE.matcher(code);
            if (!pkg.find() || !(pkg.group(1) + ".").startsWith(ROOT + ".")) {
                problems.add(file.getKey() + ": no package under " + ROOT);
                continue;
            }
            String from = topPackage(pkg.group(1));
            if (layerOf(from) < 0 && unplaced.add(from)) {
                problems.add("package '" + from + "' is not in PackageLayersTest.LAYERS (first seen in "
                        + file.getKey() + "): place it in a layer");
            }
            graph.computeIfAbsent(from, k -> new TreeMap<>());
            for (Arrow arrow : arrows(from, file.getKey(), code, pkg.end())) {
                if (arrow.to().equals(from)) {
                    continue;
                }
                if (layerOf(arrow.to()) < 0) {
                    problems.add(arrow.where() + ": package '" + arrow.to() + "' is not in PackageLayersTest.LAYERS");
                    continue;
                }
                if (KNOWN_CIRCLE.contains(arrow.edge())) {
                    continue;
                }
                graph.get(from).putIfAbsent(arrow.to(), arrow);
                if (layerOf(from) >= 0 && layerOf(arrow.to()) > layerOf(from)) {
                    problems.add(arrow.where() + ": arrow up, " + from + " (layer " + layerOf(from) + ") -> "
                            + arrow.to() + " (layer " + layerOf(arrow.to()) + ")");
                }
            }
        }
        problems.addAll(cycles(graph));
        return problems;
    }

    private static List<Arrow> arrows(String from, String file, String code, int after) {
        List<Arrow> arrows = new ArrayList<>();
        Matcher m = REFERENCE.matcher(code);
        m.region(after, code.length());
        while (m.find()) {
            String reference = m.group().replaceAll("\\s+", "");
            arrows.add(new Arrow(from, m.group(1), file, lineOf(code, m.start()), reference));
        }
        return arrows;
    }

    /** One message per cycle found (each strongly connected set of packages reported once). */
    private static List<String> cycles(Map<String, Map<String, Arrow>> graph) {
        List<String> found = new ArrayList<>();
        Set<String> reported = new TreeSet<>();
        for (String start : graph.keySet()) {
            if (reported.contains(start)) {
                continue;
            }
            List<String> path = shortestPath(graph, start, start);
            if (path == null) {
                continue;
            }
            reported.addAll(path);
            StringBuilder message = new StringBuilder("cycle: ").append(String.join(" -> ", path));
            for (int i = 0; i + 1 < path.size(); i++) {
                message.append("\n      ").append(graph.get(path.get(i)).get(path.get(i + 1)).where());
            }
            found.add(message.toString());
        }
        return found;
    }

    /** Breadth first from {@code start}'s successors back to {@code goal}; the path including both ends. */
    private static List<String> shortestPath(Map<String, Map<String, Arrow>> graph, String start, String goal) {
        Map<String, String> previous = new LinkedHashMap<>();
        Deque<String> queue = new ArrayDeque<>();
        for (String next : graph.getOrDefault(start, Map.of()).keySet()) {
            if (!previous.containsKey(next)) {
                previous.put(next, start);
                queue.add(next);
            }
        }
        while (!queue.isEmpty()) {
            String at = queue.poll();
            if (at.equals(goal)) {
                List<String> path = new ArrayList<>();
                String step = goal;
                path.add(0, step);
                do {
                    step = previous.get(step);
                    path.add(0, step);
                } while (!step.equals(start));
                return path;
            }
            for (String next : graph.getOrDefault(at, Map.of()).keySet()) {
                if (!previous.containsKey(next)) {
                    previous.put(next, at);
                    queue.add(next);
                }
            }
        }
        return null;
    }

    private static String topPackage(String qualified) {
        String rest = qualified.substring(ROOT.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    private static int layerOf(String pkg) {
        for (int i = 0; i < LAYERS.size(); i++) {
            if (LAYERS.get(i).contains(pkg)) {
                return i;
            }
        }
        return -1;
    }

    private static int lineOf(String code, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (code.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    /** The source with comments, string, text-block and char literals blanked (newlines kept). */
    static String blankCommentsAndLiterals(String source) {
        StringBuilder out = new StringBuilder(source);
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (source.startsWith("//", i)) {
                while (i < n && source.charAt(i) != '\n') {
                    out.setCharAt(i++, ' ');
                }
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                blank(out, source, i, end);
                i = end;
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end + 3;
                blank(out, source, i, end);
                i = end;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                int end = Math.min(n, j + 1);
                blank(out, source, i, end);
                i = end;
            } else {
                i++;
            }
        }
        return out.toString();
    }

    private static void blank(StringBuilder out, String source, int from, int to) {
        for (int k = from; k < to; k++) {
            if (source.charAt(k) != '\n') {
                out.setCharAt(k, ' ');
            }
        }
    }
}
