package io.loadwise.bench.chaos;

import io.loadwise.testsupport.faults.FaultNode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The chaos bench's arithmetic and its results files, on outcomes and access-log lines made up here. */
class ChaosReportTest {

    private static final long S = 1_000_000_000L;

    private static Outcome ok(long id, long startMillis, String node) {
        return Outcome.answered(id, startMillis * 1_000_000L, 200, node);
    }

    private static Outcome status(long id, long startMillis, int status) {
        return Outcome.answered(id, startMillis * 1_000_000L, status, "broken");
    }

    private static Outcome failure(long id, long startMillis, String cause) {
        return Outcome.failed(id, startMillis * 1_000_000L, cause);
    }

    @Test
    void failuresAreCountedByCauseWithinTheirWindowOnly() {
        List<Outcome> all = List.of(ok(1, 0, "a"), status(2, 100, 502), status(3, 999, 502), failure(4, 1_000, "connection reset"),
                status(5, 1_500, 500), ok(6, 1_600, "b"), status(7, 2_000, 504));
        assertEquals(Map.of("HTTP 502", 2L), ChaosReport.causes(all, 0, S));
        assertEquals(Map.of("HTTP 500", 1L, "connection reset", 1L), ChaosReport.causes(all, S, 2 * S));
        assertEquals(5, ChaosReport.failed(all, 0, Long.MAX_VALUE));
        assertEquals(0, ChaosReport.failed(all, 1_501_000_000L, 2 * S));
        assertEquals("HTTP 500: 1, connection reset: 1", ChaosReport.describe(ChaosReport.causes(all, S, 2 * S)));
        assertEquals("-", ChaosReport.describe(Map.of("HTTP 502", 0L)));
    }

    @Test
    void aStatusOtherThan200IsAFailureNamedByItsStatusAndOnly200NamesANode() {
        Outcome served = Outcome.answered(1, 0, 200, "c");
        Outcome broken = Outcome.answered(2, 0, 500, "broken");
        assertTrue(served.ok());
        assertEquals("c", served.node());
        assertEquals("HTTP 500", broken.cause());
        assertNull(broken.node());
        assertEquals(-1, Outcome.failed(3, 0, "client timeout").status());
    }

    @Test
    void theShareOfANodeIsTakenPerSecondAmongAnsweredRequestsFromTheGivenStart() {
        List<Outcome> all = new ArrayList<>();
        all.add(ok(1, 400, "c")); // before the start: not counted
        for (int i = 0; i < 10; i++) {
            all.add(ok(10 + i, 500 + i * 10, i < 1 ? "c" : "a")); // second 0: 1 of 10
        }
        for (int i = 0; i < 4; i++) {
            all.add(ok(30 + i, 1_500 + i * 10, i < 2 ? "c" : "b")); // second 1: 2 of 4
        }
        all.add(status(40, 1_600, 502)); // a failure is no answer: not in the share
        // second 2: nothing
        all.add(ok(50, 3_500, "c")); // second 3: 1 of 1
        all.add(ok(51, 4_500, "c")); // past the 4 seconds
        assertEquals(Arrays.asList(0.1, 0.5, null), ChaosReport.shareBySecond(all, "c", 500_000_000L, 3));
        assertEquals(Arrays.asList(0.1, 0.5, null, 1.0), ChaosReport.shareBySecond(all, "c", 500_000_000L, 4));
    }

    @Test
    void theExpectedRampIsTheSlowStartFactorAgainstTheOtherNodesFullWeights() {
        assertEquals(0.1 / 2.1, ChaosReport.expectedShare(0, 5_000, 3), 1e-12);
        assertEquals(0.55 / 2.55, ChaosReport.expectedShare(2_500, 5_000, 3), 1e-12);
        assertEquals(1 / 3.0, ChaosReport.expectedShare(5_000, 5_000, 3), 1e-12);
        assertEquals(1 / 3.0, ChaosReport.expectedShare(60_000, 5_000, 3), 1e-12, "the factor stops at 1");
        assertEquals(0.5, ChaosReport.expectedShare(9_000, 5_000, 2), 1e-12);
        // at the middle of each second: f = 0.19, 0.37, 0.55, 0.73, 0.91, then 1
        assertEquals(List.of(0.087, 0.156, 0.216, 0.267, 0.313, 0.333, 0.333), ChaosReport.expectedRamp(7, 5_000, 3));
    }

    @Test
    void theAccessLogSaysWhichNodeEachFailedRequestWentTo() {
        List<String> log = List.of(
                "2026-11-23 20:01:51,217 127.0.0.1 \"GET /work?i=7\" 504 c - 1500ms",
                "2026-11-23 20:01:51,218 127.0.0.1 \"GET /work?i=8\" 503 - - 0ms",
                "2026-11-23 20:01:51,219 127.0.0.1 \"GET /work?i=9\" 200 a - 1ms",
                "2026-11-23 20:01:51,220 127.0.0.1 \"GET /health\" 200 a - 1ms",
                "2026-11-23 20:01:51,221 127.0.0.1 \"- -\" 400 - - 0ms",
                "2026-11-23 20:01:51,222 127.0.0.1 \"GET /work?i=12x\" 200 b - 1ms");
        Map<Long, String> nodes = ChaosReport.accessLogNodes(log);
        assertEquals(Map.of(7L, "c", 8L, "-", 9L, "a"), nodes);
        List<Outcome> all = List.of(status(7, 0, 504), status(8, 1, 503), ok(9, 2, "a"), failure(10, 3, "client connect timeout"),
                status(11, 5_000, 502));
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("c", 1L);
        expected.put("dispatcher", 1L);
        expected.put("no access-log line", 1L);
        assertEquals(expected, ChaosReport.failuresByNode(all, nodes, 0, S));
    }

    private static CaseResult fault(Map<String, Long> phases, Long out, Long back) {
        long failed = phases.values().stream().mapToLong(Long::longValue).sum();
        return new CaseResult("kill", "node c SIGKILLed", 30.0, 9_000, failed, Map.of("HTTP 502", failed), Map.of("c", failed),
                phases, out, "ejected", back, 900L, List.of(0.1, 0.2), List.of(0.087, 0.156), "0.5 → 0.7", "note, with a comma");
    }

    private static Map<String, Long> phases(long warmUp, long fault, long out, long back) {
        Map<String, Long> phases = new LinkedHashMap<>();
        phases.put("warm-up", warmUp);
        phases.put("fault", fault);
        phases.put("out", out);
        phases.put("return", back);
        return phases;
    }

    @Test
    void aFaultCasePassesWhenNothingFailsOnceTheNodeIsOutWhateverFailedBefore() {
        assertEquals("pass", ChaosReport.verdict(fault(phases(40, 12, 0, 0), 300L, 800L)));
        assertEquals("FAIL: 3 failed while a healthy node served", ChaosReport.verdict(fault(phases(0, 12, 2, 1), 300L, 800L)));
        assertEquals("FAIL: never left selection; never came back", ChaosReport.verdict(fault(phases(0, 0, 0, 0), null, null)));
    }

    @Test
    void aSoakCasePassesOnlyWithoutAFailureAfterItsWarmUp() {
        Map<String, Long> clean = new LinkedHashMap<>(Map.of("warm-up", 3L, "soak", 0L));
        Map<String, Long> dirty = new LinkedHashMap<>(Map.of("warm-up", 0L, "soak", 2L));
        CaseResult passed = new CaseResult("reload", "r", 65, 19_500, 3, Map.of(), Map.of(), clean, null, null, null, null,
                List.of(), List.of(), "1 → 1", "50 reloads");
        CaseResult failed = new CaseResult("reload", "r", 65, 19_500, 2, Map.of(), Map.of(), dirty, null, null, null, null,
                List.of(), List.of(), "1 → 1", "50 reloads");
        assertEquals("pass", ChaosReport.verdict(passed));
        assertEquals("FAIL: 2 failed", ChaosReport.verdict(failed));
    }

    @Test
    void theCsvHasAHeaderAndOneQuotedRowPerCase() {
        String csv = ChaosReport.csv(List.of(fault(phases(1, 2, 0, 0), 250L, 700L)));
        String[] lines = csv.split("\n");
        assertEquals(2, lines.length, csv);
        assertTrue(lines[0].startsWith("case,seconds,sent,failed,failed_by_cause,failed_by_node,failed_warm_up,failed_fault,"), lines[0]);
        assertEquals("kill,30.0,9000,3,HTTP 502=3,c=3,1,2,0,0,,pass,250,ejected,700,900,0.1;0.2,0.087;0.156,0.5 → 0.7",
                lines[1]);
        assertEquals("\"a,b\"", ChaosReport.quote("a,b"));
        assertEquals("\"say \"\"hi\"\"\"", ChaosReport.quote("say \"hi\""));
    }

    @Test
    void theTableHasOneRowPerCaseWithTheSameColumnsAsItsHeader() {
        String table = ChaosReport.table(List.of(fault(phases(0, 4, 0, 0), 1_250L, 800L)));
        String[] lines = table.split("\n");
        assertEquals(3, lines.length);
        int columns = lines[0].split("\\|", -1).length;
        assertEquals(columns, lines[1].split("\\|", -1).length);
        assertEquals(columns, lines[2].split("\\|", -1).length, lines[2]);
        assertTrue(lines[2].contains("| 1.3 s | ejected | 0.8 s | 0.10 0.20 | 0.09 0.16 | pass |"), lines[2]);
    }

    @Test
    void reloadsDropOneNodeByTurnsAndThenBringAllBack() {
        List<String> all = List.of("a", "b", "c", "d");
        List<List<String>> sets = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            sets.add(ChaosRun.reloadSet(all, i));
        }
        assertEquals(List.of(List.of("b", "c", "d"), all, List.of("a", "c", "d"), all, List.of("a", "b", "d"), all,
                List.of("a", "b", "c"), all, List.of("b", "c", "d"), all), sets);
    }

    @Test
    void theNodeReadsTheTargetOfEachHeadAndGivesUpOnAnEndlessOne() throws IOException {
        ByteArrayInputStream two = new ByteArrayInputStream(
                "GET /work?i=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /_fault/500 HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals("/work?i=1", FaultNode.readHead(two));
        assertEquals("/_fault/500", FaultNode.readHead(two));
        assertNull(FaultNode.readHead(two), "the end of the connection");
        byte[] endless = ("GET / HTTP/1.1\r\nX: " + "y".repeat(FaultNode.MAX_HEAD) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        assertNull(FaultNode.readHead(new ByteArrayInputStream(endless)), "a head over 16 KiB closes the connection");
    }
}
