package io.loadwise.console.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.DeserializationFeature;
import io.loadwise.cli.Cli;
import io.loadwise.cli.UsageException;
import io.loadwise.dispatcher.cli.CliCommand;
import io.loadwise.dispatcher.cli.Main;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestPki;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Docs that cannot drift: every fenced block, every {@code ./loadwise} command and every {@code curl} line of
 * README.md and docs/*.md is checked against the real thing (the markings are described in
 * docs/writing-docs.md).
 * <ul>
 * <li>A {@code json} block is a whole configuration: {@link ConfigLoader#parse} and {@link ConfigValidator} find
 * no error (certificate and key paths are replaced with files of the test PKI). A {@code json fragment} (part of
 * a configuration) or {@code json answer} (what the API answers) block must be valid JSON; a fragment that is a
 * cluster, or a part of one, is validated as a cluster.</li>
 * <li>A {@code ./loadwise} command of the jar parses with the real command tree ({@link Main#commandTree});
 * one of the launcher alone is in the launcher's usage text.</li>
 * <li>A {@code curl} line runs, in document order, with the real {@code curl} against a live dispatcher and
 * its admin API ({@link LiveSite}); it must answer 2xx or the status the doc names in a comment, and the
 * {@code json answer} block right after it names only keys the real answer has; a {@code $ curl} transcript's
 * JSON line must be the answer.</li>
 * <li>Relative links resolve, and a few tables match the code (JMX, histogram buckets, README's policies).</li>
 * </ul>
 */
class DocsTest {

    static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /** Commands of the jar: their arguments are parsed with the real command tree. */
    static final Set<String> JAR = Set.of("run", "validate", "config", "drain", "rollout", "passwd", "completion",
            "help", "version", "--version", "-V", "--help", "-h");
    /** Commands of the ./loadwise launcher alone: they must be in its usage text. */
    static final Set<String> LAUNCHER = Set.of("demo", "test", "bench", "simulate", "capacity", "dist");
    /** What the docs' placeholders stand for, to parse a line that has them. */
    static final Map<String, String> PLACEHOLDERS = Map.of("N", "2", "KIND", "nio", "FILE", "loadwise.json",
            "F", "loadwise.json", "LEVEL", "debug", "DIR", "out", "COMMAND", "run");

    /**
     * {@code curl} lines that are not run, each with why; keyed by a piece of the command. Keep it short.
     */
    static final Map<String, String> NOT_RUN = Map.of(
            "http://node:8080/myapp/loadwise-agent/metrics",
            "an agent inside an application server (node-agent's tests and bench servers fetch it)",
            "http://node:port/loadwise-agent/metrics", "a placeholder in the troubleshooting list, not a command",
            "--cert client.pem --key client.key …", "an elided mutual-TLS example (tls tests use client certificates)",
            "curl --http2-prior-knowledge", "an option named in prose, no URL",
            "curl --http2 http://…", "an option named in prose, no URL");

    @TempDir
    Path dir;

    @Test
    void everyJsonBlockIsAValidConfigurationOrMarked() throws Exception {
        ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());
        TestPki.Issued cert = new TestPki(dir).issue("server", "shop.example", "shop.example", "localhost");
        List<String> failures = new ArrayList<>();
        int whole = 0;
        int parts = 0;
        int fragments = 0;
        for (MarkdownDoc doc : MarkdownDoc.all(ROOT)) {
            for (MarkdownDoc.Block block : doc.blocks()) {
                if (!block.language().equals("json")) {
                    continue;
                }
                String where = doc.where(block.line());
                List<String> words = List.of(block.info().split("\\s+"));
                if (words.size() > 1) {
                    if (words.size() != 2 || !Set.of("fragment", "answer").contains(words.get(1))) {
                        failures.add(where + ": unknown marking '" + block.info() + "' (json, json fragment or json answer)");
                        continue;
                    }
                    parts++;
                    JsonNode part;
                    try {
                        part = JSON.readTree(block.body());
                    } catch (IOException e) {
                        failures.add(where + ": a " + words.get(1) + " that is not valid JSON: " + firstLine(e));
                        continue;
                    }
                    String cluster = words.get(1).equals("fragment") ? asCluster(part) : null;
                    if (cluster == null) {
                        continue;
                    }
                    fragments++;
                    String json = withCertificates("{\"clusters\": [" + cluster + "]}", cert);
                    try {
                        List<String> errors = validator.validate(ConfigLoader.parse(json));
                        if (!errors.isEmpty()) {
                            failures.add(where + ": an invalid cluster fragment: " + errors);
                        }
                    } catch (Exception e) {
                        failures.add(where + ": an invalid cluster fragment: " + firstLine(e));
                    }
                    continue;
                }
                whole++;
                String json = withCertificates(block.body(), cert);
                try {
                    LoadwiseConfig config = ConfigLoader.parse(json);
                    List<String> errors = validator.validate(config);
                    if (!errors.isEmpty()) {
                        failures.add(where + ": invalid configuration (mark a part `json fragment`): " + errors);
                    }
                } catch (Exception e) {
                    failures.add(where + ": not a whole configuration (mark a part `json fragment`, an API answer"
                            + " `json answer`): " + firstLine(e));
                }
            }
        }
        assertEquals(List.of(), failures, String.join("\n", failures));
        assertTrue(whole >= 5 && parts >= 20, whole + " configurations, " + parts + " fragments and answers");
        assertTrue(fragments >= 6, fragments + " cluster fragments validated");
        System.out.println("DocsTest: " + whole + " whole configurations validated, " + parts
                + " fragments and answers parsed, " + fragments + " of the fragments validated as clusters");
    }

    /** The keys of a cluster that a fragment may show alone; the test puts them into {@link #BASE_CLUSTER}. */
    static final Set<String> CLUSTER_PARTS = Set.of("tls", "healthCheck", "outlierDetection", "nodeTls");
    static final String BASE_CLUSTER = """
            {"name": "part", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
             "nodes": [{"name": "a", "address": "10.0.0.11:8080"}]}""";

    /**
     * A fragment that is one cluster (it has {@code name} and {@code nodes}), or the keys of one from
     * {@link #CLUSTER_PARTS} put into a small cluster, as the text of a cluster; null for other fragments.
     */
    static String asCluster(JsonNode part) throws IOException {
        if (!part.isObject()) {
            return null;
        }
        if (part.has("name") && part.has("nodes")) {
            return part.toString();
        }
        for (Iterator<String> it = part.fieldNames(); it.hasNext(); ) {
            if (!CLUSTER_PARTS.contains(it.next())) {
                return null;
            }
        }
        com.fasterxml.jackson.databind.node.ObjectNode cluster = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(BASE_CLUSTER);
        cluster.setAll((com.fasterxml.jackson.databind.node.ObjectNode) part);
        return cluster.toString();
    }

    /** The JSON with every {@code "….pem"} and {@code "….key"} replaced with the test PKI's files. */
    static String withCertificates(String json, TestPki.Issued cert) {
        return json.replaceAll("\"[^\"]*\\.pem\"", "\"" + cert.certificate() + "\"")
                .replaceAll("\"[^\"]*\\.key\"", "\"" + cert.key() + "\"");
    }

    @Test
    void everyLoadwiseCommandParsesOrIsTheLaunchers() throws Exception {
        String usage = launcherUsage();
        List<String> failures = new ArrayList<>();
        int jar = 0;
        int launcher = 0;
        for (MarkdownDoc doc : MarkdownDoc.all(ROOT)) {
            for (ShellLines.Command command : ShellLines.of(doc, "./loadwise")) {
                List<String> words = ShellLines.words(command.text(), "./loadwise");
                List<String> args = new ArrayList<>();
                for (String word : words.subList(1, words.size())) {
                    if (word.contains("…") || word.contains("...")) {
                        break; // the doc elides the rest
                    }
                    args.add(PLACEHOLDERS.getOrDefault(word, word));
                }
                String name = args.isEmpty() ? "" : args.get(0);
                if (name.isEmpty()) {
                    continue; // ./loadwise alone: the launcher's usage text
                }
                if (LAUNCHER.contains(name)) {
                    launcher++;
                    if (!Pattern.compile("\n  " + name + "[ \n]").matcher(usage).find()) {
                        failures.add(command.where() + ": ./loadwise " + name + " is not in the launcher's usage text");
                    } else if (name.equals("bench") && args.size() > 1 && !args.get(1).startsWith("-")
                            && !usage.contains("|" + args.get(1)) && !usage.contains(" " + args.get(1) + "|")) {
                        failures.add(command.where() + ": ./loadwise bench " + args.get(1) + " is not a bench command");
                    }
                    continue;
                }
                if (!JAR.contains(name)) {
                    failures.add(command.where() + ": unknown command in `" + command.text() + "`");
                    continue;
                }
                jar++;
                String error = null;
                try {
                    Cli.parse(Main.commandTree(), args.toArray(String[]::new));
                } catch (UsageException e) {
                    error = e.getMessage();
                } catch (RuntimeException e) {
                    error = String.valueOf(e.getMessage());
                }
                String expected = expectedUsageError(command);
                if (expected != null && error == null) {
                    error = executedUsageError(args);
                }
                if (expected == null && error != null && command.block() == null && error.endsWith(" is required")) {
                    continue; // prose names a command or one of its options, not a whole command line
                }
                if (expected == null && error != null) {
                    failures.add(command.where() + ": `" + command.text() + "` does not parse: " + error);
                } else if (expected != null && !expected.contains(": " + error + ";")) {
                    failures.add(command.where() + ": the doc shows `" + expected + "`, the command line parses to "
                            + (error == null ? "no error" : "'" + error + "'"));
                }
            }
        }
        assertEquals(List.of(), failures, String.join("\n", failures));
        assertTrue(jar >= 20 && launcher >= 15, jar + " jar commands, " + launcher + " launcher commands");
        System.out.println("DocsTest: " + jar + " jar command lines parsed, " + launcher + " launcher commands found");
    }

    /** The usage error a {@code $ } line shows under it ({@code loadwise run: ...; see loadwise run --help}), or null. */
    private static String expectedUsageError(ShellLines.Command command) {
        for (String line : command.output()) {
            if (line.matches("loadwise [a-z]+: .*; see loadwise [a-z]+ --help")) {
                return line;
            }
        }
        return null;
    }

    /**
     * Runs a command line the doc shows failing with a usage error that parsing alone does not find (a value out
     * of range): every such check comes before the configuration is read, and the file the line names does
     * not exist where the test runs, so nothing starts. Returns the usage error's message, or null.
     */
    private String executedUsageError(List<String> args) throws IOException {
        List<String> safe = new ArrayList<>();
        for (String arg : args) {
            safe.add(arg.endsWith(".json") ? dir.resolve("absent-" + arg).toString() : arg);
        }
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream errStream = new java.io.PrintStream(err, true, StandardCharsets.UTF_8);
        java.io.PrintStream out = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        int code = Cli.execute(Main.commandTree(), safe.toArray(String[]::new), out, errStream,
                chosen -> chosen.getCommand() instanceof CliCommand c ? c.run(out, errStream, Map.of()) : Main.USAGE);
        Matcher m = Pattern.compile("^loadwise [a-z]+: (.*); see loadwise [a-z]+ --help$", Pattern.MULTILINE)
                .matcher(err.toString(StandardCharsets.UTF_8));
        return code == Main.USAGE && m.find() ? m.group(1) : null;
    }

    /** What {@code ./loadwise --help} prints (the launcher answers it without building anything). */
    private static String launcherUsage() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", ROOT.resolve("loadwise").toString(), "--help")
                .redirectErrorStream(true).start();
        String usage = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "./loadwise --help ended");
        assertEquals(0, p.exitValue(), usage);
        assertTrue(usage.contains("\nCommands:\n"), usage);
        return usage;
    }

    @Test
    void everyCurlLineAnswersAsDocumented() throws Exception {
        List<String> failures = new ArrayList<>();
        int run = 0;
        List<String> skipped = new ArrayList<>();
        for (MarkdownDoc doc : MarkdownDoc.all(ROOT)) {
            List<ShellLines.Command> commands = ShellLines.of(doc, "curl");
            if (commands.stream().allMatch(c -> notRun(c) != null)) {
                commands.forEach(c -> skipped.add(c.where() + " (" + notRun(c) + ")"));
                continue; // no live site for a file with nothing to run
            }
            try (LiveSite site = new LiveSite(dir.resolve(doc.name().replace('/', '_')))) {
                for (ShellLines.Command command : commands) {
                    String reason = notRun(command);
                    if (reason != null) {
                        skipped.add(command.where() + " (" + reason + ")");
                        continue;
                    }
                    run++;
                    check(site, command, failures);
                }
            }
        }
        assertEquals(List.of(), failures, String.join("\n", failures));
        assertTrue(run >= 20, run + " curl lines run");
        assertTrue(skipped.size() <= 8, "not run: " + skipped);
        System.out.println("DocsTest: " + run + " curl lines run; not run: " + skipped);
    }

    private static String notRun(ShellLines.Command command) {
        for (Map.Entry<String, String> e : NOT_RUN.entrySet()) {
            if (command.text().contains(e.getKey())) {
                return e.getValue();
            }
        }
        return null;
    }

    private static void check(LiveSite site, ShellLines.Command command, List<String> failures) throws Exception {
        LiveSite.Answer answer = site.curl(command.text());
        String where = command.where() + ": `" + command.text().lines().findFirst().orElse("") + "`";
        int expected = command.expectedStatus();
        if (answer.status() < 0) {
            failures.add(where + ": curl made no request: " + answer.stderr());
            return;
        }
        if (expected > 0 ? answer.status() != expected : answer.status() / 100 != 2) {
            failures.add(where + ": HTTP " + answer.status() + (expected > 0 ? ", the doc says " + expected : "")
                    + ": " + answer.stdout());
            return;
        }
        for (String line : command.output()) {
            String shown = line.replaceAll("\\s+#.*$", "").strip();
            if (shown.startsWith("{") || shown.startsWith("[")) {
                equal(where, shown, answer.body(), failures); // a transcript: the answer itself
            } else if (!answer.stdout().contains(shown)) {
                failures.add(where + ": the doc shows `" + shown + "`, curl printed: " + answer.stdout());
            }
        }
        MarkdownDoc.Block shown = command.block() == null ? null : command.doc().next(command.block());
        if (shown != null && shown.language().equals("json") && shown.marked("answer")
                && ShellLines.of(command.doc(), "curl").stream().filter(c -> c.block() == command.block()).count() == 1) {
            compare(command.doc().where(shown.line()), shown.body(), answer.body(), failures);
        }
    }

    /** A {@code $ curl} transcript's JSON line must be the real answer, value for value. */
    private static void equal(String where, String shown, String real, List<String> failures) {
        try {
            if (!JSON.readTree(shown).equals(JSON.readTree(real))) {
                failures.add(where + ": the doc shows " + shown + ", the real answer is " + real);
            }
        } catch (IOException e) {
            failures.add(where + ": not JSON: " + firstLine(e) + "; real answer: " + real);
        }
    }

    private static void compare(String where, String shown, String real, List<String> failures) {
        JsonNode doc;
        JsonNode answer;
        try {
            doc = JSON.readTree(shown);
        } catch (IOException e) {
            failures.add(where + ": the answer shown is not JSON: " + firstLine(e));
            return;
        }
        try {
            answer = JSON.readTree(real);
        } catch (IOException e) {
            failures.add(where + ": the real answer is not JSON: " + real);
            return;
        }
        List<String> missing = new ArrayList<>();
        missingKeys(doc, answer, "", missing);
        if (!missing.isEmpty()) {
            failures.add(where + ": the doc shows keys the real answer lacks: " + missing + "; real answer: " + real);
        }
    }

    /** The paths of {@code doc}'s object keys that {@code real} lacks; array elements are matched by name, else by place. */
    static void missingKeys(JsonNode doc, JsonNode real, String path, List<String> missing) {
        if (real == null || real.isNull()) {
            return; // the doc shows a state the live site is not in; the key itself was there
        }
        if (doc.isObject()) {
            if (!real.isObject()) {
                missing.add(path + " (an object in the doc, " + real.getNodeType() + " in the answer)");
                return;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = doc.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (!real.has(field.getKey())) {
                    missing.add(path + "." + field.getKey());
                } else {
                    missingKeys(field.getValue(), real.get(field.getKey()), path + "." + field.getKey(), missing);
                }
            }
        } else if (doc.isArray() && real.isArray()) {
            for (int i = 0; i < doc.size(); i++) {
                JsonNode element = doc.get(i);
                JsonNode match = i < real.size() ? real.get(i) : null;
                if (element.has("name")) {
                    for (JsonNode candidate : real) {
                        if (candidate.path("name").equals(element.get("name"))) {
                            match = candidate;
                        }
                    }
                }
                missingKeys(element, match, path + "[" + i + "]", missing);
            }
        }
    }

    static String firstLine(Exception e) {
        String message = String.valueOf(e.getMessage());
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /**
     * docs/operations.md's JMX table names exactly the attributes (and which are writable) and operations of
     * the MXBean interfaces.
     */
    @Test
    void theJmxTableMatchesTheMxBeans() throws IOException {
        Map<String, Class<?>> beans = Map.of("Dispatcher", io.loadwise.dispatcher.jmx.DispatcherMXBean.class,
                "Cluster", io.loadwise.dispatcher.jmx.ClusterMXBean.class, "Node", io.loadwise.dispatcher.jmx.NodeMXBean.class);
        String doc = Files.readString(ROOT.resolve("docs/operations.md"));
        String section = doc.substring(doc.indexOf("\n## JMX\n"));
        int rows = 0;
        for (String row : section.split("\n")) {
            Matcher type = Pattern.compile("^\\| `io\\.loadwise:type=([A-Za-z]+)[^`]*` \\|").matcher(row);
            if (!type.find()) {
                continue;
            }
            rows++;
            String[] cells = row.split("\\|");
            Class<?> bean = beans.get(type.group(1));
            Set<String> attributes = new java.util.TreeSet<>();
            Set<String> writable = new java.util.TreeSet<>();
            Set<String> operations = new java.util.TreeSet<>();
            for (java.lang.reflect.Method m : bean.getMethods()) {
                String n = m.getName();
                if (n.startsWith("get") && m.getParameterCount() == 0) {
                    attributes.add(n.substring(3));
                } else if (n.startsWith("is") && m.getParameterCount() == 0) {
                    attributes.add(n.substring(2));
                } else if (n.startsWith("set") && m.getParameterCount() == 1) {
                    writable.add(n.substring(3));
                } else {
                    operations.add(n);
                }
            }
            Set<String> documented = new java.util.TreeSet<>();
            Set<String> documentedWritable = new java.util.TreeSet<>();
            Matcher a = Pattern.compile("`([A-Z][A-Za-z]+)`( \\(writable)?").matcher(cells[2]);
            while (a.find()) {
                documented.add(a.group(1));
                if (a.group(2) != null) {
                    documentedWritable.add(a.group(1));
                }
            }
            Set<String> documentedOperations = new java.util.TreeSet<>();
            Matcher o = Pattern.compile("`([a-z][A-Za-z]*)\\([a-z]*\\)`").matcher(cells[3]);
            while (o.find()) {
                documentedOperations.add(o.group(1));
            }
            assertEquals(attributes, documented, type.group(1) + " attributes");
            assertEquals(writable, documentedWritable, type.group(1) + " writable attributes");
            assertEquals(operations, documentedOperations, type.group(1) + " operations");
        }
        assertEquals(3, rows, "a row for the dispatcher, a cluster and a node");
    }

    /** Every relative link of the docs leads to a file that exists, and its {@code #anchor} to a heading there. */
    @Test
    void everyLinkLeadsSomewhere() throws IOException {
        List<String> failures = new ArrayList<>();
        int links = 0;
        Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
        for (MarkdownDoc doc : MarkdownDoc.all(ROOT)) {
            for (String line : prose(doc.file())) {
                Matcher m = link.matcher(line);
                while (m.find()) {
                    String target = m.group(1);
                    if (target.matches("^[a-z]+:.*")) {
                        continue; // http(s), mailto
                    }
                    links++;
                    int hash = target.indexOf('#');
                    String path = hash < 0 ? target : target.substring(0, hash);
                    Path file = path.isEmpty() ? doc.file() : doc.file().getParent().resolve(path).normalize();
                    if (!Files.exists(file)) {
                        failures.add(doc.name() + ": link to a missing file: " + target);
                    } else if (hash >= 0 && file.toString().endsWith(".md")
                            && !anchors(file).contains(target.substring(hash + 1))) {
                        failures.add(doc.name() + ": link to a missing heading: " + target);
                    }
                }
            }
        }
        assertEquals(List.of(), failures, String.join("\n", failures));
        assertTrue(links > 100, links + " links");
    }

    /** The lines of a Markdown file outside its fenced blocks. */
    static List<String> prose(Path file) throws IOException {
        List<String> prose = new ArrayList<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(file)) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced) {
                prose.add(line);
            }
        }
        return prose;
    }

    /** GitHub's anchors of a file's headings: lower case, punctuation dropped, spaces to dashes, -1, -2 for repeats. */
    static Set<String> anchors(Path file) throws IOException {
        Set<String> anchors = new java.util.HashSet<>();
        for (String line : prose(file)) {
            Matcher h = Pattern.compile("^#{1,6} (.*)$").matcher(line);
            if (!h.matches()) {
                continue;
            }
            String text = h.group(1).replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1");
            String base = text.toLowerCase(java.util.Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            String id = base;
            for (int n = 1; !anchors.add(id); n++) {
                id = base + "-" + n;
            }
        }
        return anchors;
    }

    /** agent.md's metrics document is one the dispatcher reads, with the seed's metric names. */
    @Test
    void theAgentsDocumentIsOneTheDispatcherReads() throws Exception {
        MarkdownDoc agent = MarkdownDoc.read(ROOT, ROOT.resolve("docs/agent.md"));
        String heading = "### `GET <context>/loadwise-agent/metrics` (JSON)";
        int line = Files.readAllLines(agent.file()).indexOf(heading) + 1;
        MarkdownDoc.Block block = agent.blocks().stream().filter(b -> b.line() > line).findFirst().orElseThrow();
        io.loadwise.wire.AgentMetricsDocument document = io.loadwise.wire.MetricsJson.parse(block.body());
        assertTrue(document.metrics().size() >= 5, document.metrics().toString());
        for (String name : document.metrics().keySet()) {
            assertTrue(io.loadwise.wire.SeedMetric.bySeedName(name) != null, name + " is not a seed metric");
        }
    }

    /** README's list of policies is the built-in policies, every one and no other. */
    @Test
    void theReadmeNamesEveryBuiltInPolicy() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int start = readme.indexOf("## Policies\n");
        String paragraph = readme.substring(start, readme.indexOf("\n\n", start + 14));
        Set<String> named = new java.util.TreeSet<>();
        Matcher m = Pattern.compile("`([a-z0-9]+(?:-[a-z0-9]+)*)`").matcher(paragraph);
        while (m.find()) {
            named.add(m.group(1));
        }
        Set<String> builtIn = new java.util.TreeSet<>();
        for (String id : PolicyRegistry.load().all().keySet()) {
            if (!id.startsWith("test-")) { // the test doubles of testsupport and console.testing
                builtIn.add(id);
            }
        }
        assertEquals(builtIn, named);
    }

    /** docs/metrics.md names the histograms' buckets as the dispatcher has them. */
    @Test
    void theHistogramBucketsAreTheDispatchers() throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/metrics.md")).replace("\n", " ");
        Matcher m = Pattern.compile("Histograms have the same (\\d+) buckets everywhere, in seconds: `([^`]+)`").matcher(doc);
        assertTrue(m.find(), "metrics.md's sentence on the buckets");
        double[] bounds = io.loadwise.dispatcher.metrics.LatencyHistogram.BOUNDS_SECONDS;
        assertEquals(bounds.length, Integer.parseInt(m.group(1)));
        List<Double> documented = new ArrayList<>();
        for (String b : m.group(2).split(",\\s*")) {
            documented.add(Double.parseDouble(b));
        }
        assertEquals(java.util.Arrays.stream(bounds).boxed().toList(), documented);
    }

    /** docs/writing-docs.md explains the markings and names this test. */
    @Test
    void theMarkingsAreDocumented() throws IOException {
        String note = Files.readString(ROOT.resolve("docs/writing-docs.md"));
        for (String marking : List.of("```json fragment", "```json answer", "DocsTest")) {
            Matcher m = Pattern.compile(Pattern.quote(marking)).matcher(note);
            assertTrue(m.find(), "docs/writing-docs.md explains " + marking);
        }
    }
}
