package io.loadwise.dispatcher.adversarial;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.net.Transport;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The standing adversarial suite of the L7 listener (issue 11): every {@code adversarial/*.cases} file
 * and every {@link JavaCase}, each against a fresh real listener and raw node, each with a hard timeout.
 */
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class AdversarialSuiteTest {

    /** A case that hangs fails instead of stalling the build. */
    static final Duration CASE_TIMEOUT = Duration.ofSeconds(20);
    private static final String FOLDER = "/adversarial/";

    private static Transport transport;

    @BeforeAll
    static void startTransport() throws IOException {
        AccessLogTap.start();
        // One I/O thread: node connections are pooled per event loop, so reuse is deterministic.
        transport = new Transport(1);
    }

    @AfterAll
    static void stopTransport() throws IOException {
        transport.close();
        AccessLogTap.stop();
    }

    @TestFactory
    @Order(1)
    Stream<DynamicNode> corpus() throws IOException {
        List<DynamicNode> groups = new ArrayList<>();
        for (String file : caseFiles()) {
            String group = file.substring(0, file.length() - ".cases".length());
            List<CorpusCase> cases;
            try (InputStream in = AdversarialSuiteTest.class.getResourceAsStream(FOLDER + file)) {
                cases = CorpusReader.read(group, in);
            }
            URI source = resourceUri(file);
            groups.add(DynamicContainer.dynamicContainer(group, source, cases.stream().map(c -> DynamicTest.dynamicTest(
                    c.name() + (c.spec().isEmpty() ? "" : " [spec " + c.spec() + "]"),
                    URI.create(source + "?line=" + c.line()), () -> run(c.id(), ctx -> CaseRunner.run(c, ctx))))));
        }
        return groups.stream();
    }

    @TestFactory
    @Order(2)
    Stream<DynamicNode> javaCases() {
        java.util.Map<String, List<DynamicNode>> groups = new java.util.LinkedHashMap<>();
        for (JavaCase j : javaCaseList()) {
            groups.computeIfAbsent(j.group(), g -> new ArrayList<>()).add(DynamicTest.dynamicTest(
                    j.name() + " [spec " + j.spec() + "]", () -> run(j.id(), j.body()::run)));
        }
        Stream<DynamicNode> all = groups.entrySet().stream()
                .map(e -> DynamicContainer.dynamicContainer(e.getKey(), e.getValue()));
        return Stream.concat(all, Stream.of(DynamicTest.dynamicTest("every documented termination state is checked",
                AdversarialSuiteTest::terminationTableCovered)));
    }

    /**
     * The termination-state table of docs/operations.md and the suite agree: every state in it is the state of a
     * line some case checks exactly, and no case checks a state it lacks. Judged only when every case ran.
     */
    private static void terminationTableCovered() {
        Set<String> documented = TerminationTable.documented();
        Set<String> checked = AccessLogTap.checked();
        org.junit.jupiter.api.Assumptions.assumeTrue(checked.containsAll(Set.of("--", "PH", "NR")),
                "not the whole suite ran: coverage not judged");
        Set<String> missing = new java.util.TreeSet<>(documented);
        missing.removeAll(checked);
        Set<String> undocumented = new java.util.TreeSet<>(checked);
        undocumented.removeAll(documented);
        assertTrue(missing.isEmpty() && undocumented.isEmpty(), "termination states documented in "
                + TerminationTable.DOC + " but checked by no case: " + missing + "; checked but not documented: "
                + undocumented);
    }

    private static List<JavaCase> javaCaseList() {
        List<JavaCase> all = new ArrayList<>();
        all.addAll(SlowPeerCases.all());
        all.addAll(NodeTimingCases.all());
        all.addAll(RetryQueueCases.all());
        all.addAll(ConnectionLimitCases.all());
        all.addAll(Http2Cases.all());
        all.addAll(H2NodeCases.all());
        all.addAll(TlsCases.all());
        all.addAll(ReadmissionProbeCases.all());
        all.addAll(RateLimitCases.all());
        all.addAll(TerminationCases.all());
        return all;
    }

    private static void run(String id, JavaCase.Body body) throws Exception {
        AccessLogTap.caseStarted();
        try (CaseContext ctx = new CaseContext(transport)) {
            assertTimeoutPreemptively(CASE_TIMEOUT, () -> body.run(ctx), () -> id + " did not finish within "
                    + CASE_TIMEOUT.toSeconds() + " s");
        } catch (AssertionError e) {
            if (e.getMessage() != null && e.getMessage().startsWith(id)) {
                throw e;
            }
            throw new AssertionError(id + ": " + e.getMessage(), e); // the report names the case
        }
    }

    /** The {@code .cases} files, sorted; read from the test-classes folder. */
    private static List<String> caseFiles() {
        URL folder = AdversarialSuiteTest.class.getResource(FOLDER);
        if (folder == null || !folder.getProtocol().equals("file")) {
            throw new IllegalStateException("the adversarial corpus must be a folder on the test class path: " + folder);
        }
        try {
            String[] names = new File(folder.toURI()).list((dir, name) -> name.endsWith(".cases"));
            if (names == null || names.length == 0) {
                throw new IllegalStateException("no .cases files in " + folder);
            }
            Arrays.sort(names);
            return List.of(names);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static URI resourceUri(String file) {
        try {
            return AdversarialSuiteTest.class.getResource(FOLDER + file).toURI();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
