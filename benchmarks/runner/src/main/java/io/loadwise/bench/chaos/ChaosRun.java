package io.loadwise.bench.chaos;

import io.loadwise.testsupport.faults.FaultNodeProcess;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The cases of {@code loadwise bench chaos}, one at a time, each on fresh processes: three (four for
 * {@code reload}) {@link FaultNode}s, the shipped dispatcher in front of them and an {@link OpenLoad} through
 * it. A fault case warms up for {@value #WARM_UP_S} s, breaks node {@code c}, polls the admin API every
 * {@value #POLL_MS} ms until {@code c} is out of selection, keeps the fault for {@value #HOLD_S} s, repairs
 * {@code c}, polls until it is back and then watches its slow-start ramp for {@value #RAMP_S} s.
 */
public final class ChaosRun {

    /** The fault cases, in run order, then the soak cases. */
    public static final List<String> CASES = List.of("kill", "stop", "500", "slow", "reset", "policies", "reload");
    static final int WARM_UP_S = 5;
    static final int SETTLE_S = 2;
    static final int MAX_WARM_UP_S = 30;
    static final int HOLD_S = 8;
    static final int RAMP_S = ChaosDispatcher.SLOW_START_MS / 1_000 + 3;
    static final int POLL_MS = 100;
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    static final Duration STARTUP = Duration.ofSeconds(60);

    private final Path dispatcherJar;
    private final Path work;
    private final int rate;
    private final int soakSeconds;
    private final int reloads;
    private final PrintStream out;

    /**
     * @param soakSeconds how long the {@code policies} and {@code reload} cases run after their warm-up
     * @param reloads how many reloads the {@code reload} case makes in that time
     */
    public ChaosRun(Path dispatcherJar, Path work, int rate, int soakSeconds, int reloads, PrintStream out) {
        this.dispatcherJar = dispatcherJar;
        this.work = work;
        this.rate = rate;
        this.soakSeconds = soakSeconds;
        this.reloads = reloads;
        this.out = out;
    }

    /** Runs one case. */
    public CaseResult run(String name) throws IOException, InterruptedException {
        return switch (name) {
            case "policies" -> policies();
            case "reload" -> reload();
            default -> fault(name);
        };
    }

    private void progress(String name, String line) {
        out.println("chaos: " + name + ": " + line);
        out.flush();
    }

    static List<FaultNodeProcess> startNodes(String... names) throws IOException {
        List<FaultNodeProcess> nodes = new ArrayList<>();
        try {
            for (String n : names) {
                nodes.add(FaultNodeProcess.start(n, 0));
            }
        } catch (IOException | RuntimeException e) {
            closeAll(nodes);
            throw e;
        }
        return nodes;
    }

    static void closeAll(List<FaultNodeProcess> nodes) {
        for (FaultNodeProcess node : nodes) {
            try {
                node.close();
            } catch (IOException | InterruptedException e) {
                // best effort: the node also exits when this JVM's end closes its stdin
            }
        }
    }

    /** Waits until every node's health check says up, so that the case starts from a settled cluster. */
    static void awaitAllUp(ChaosDispatcher dispatcher, List<FaultNodeProcess> nodes)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 30 * S;
        for (FaultNodeProcess node : nodes) {
            while (!dispatcher.node(node.name()).path("health").path("state").asText().equals("up")) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException("node " + node.name() + " was not checked up within 30 s: "
                            + dispatcher.node(node.name()));
                }
                Thread.sleep(POLL_MS);
            }
        }
    }

    /**
     * Warms up for at least {@value #WARM_UP_S} s and until no request sent in the last {@value #SETTLE_S} s has
     * failed (a freshly started JVM answers its first requests slowly, more so on a busy machine), at most
     * {@value #MAX_WARM_UP_S} s. Returns how long it took, in ns on the load's clock.
     */
    private long warmUp(String name, OpenLoad load, long origin) throws InterruptedException {
        until(origin, WARM_UP_S * S);
        while (now(origin) < MAX_WARM_UP_S * S
                && load.lastFailureStart() > now(origin) - SETTLE_S * S - ChaosDispatcher.RESPONSE_TIMEOUT_MS * MS) {
            Thread.sleep(POLL_MS);
        }
        long took = now(origin);
        if (took >= MAX_WARM_UP_S * S) {
            progress(name, "the cluster did not settle within " + MAX_WARM_UP_S + " s of warm-up; going on");
        }
        return took;
    }

    /** The one-minute load average, from /proc/loadavg ({@code ?} elsewhere). */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim().split(" ", 2)[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /** A case's work folder, emptied: its configuration, logs and metric stores from an earlier run go. */
    private Path freshDir(String name) throws IOException {
        return freshDir(work, name);
    }

    /** {@code work/name}, emptied. */
    static Path freshDir(Path work, String name) throws IOException {
        Path dir = work.resolve(name);
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        return Files.createDirectories(dir);
    }

    /** Parks until the load's clock reads {@code nanos}: the scenario's schedule, not a synchronisation. */
    static void until(long origin, long nanos) throws InterruptedException {
        long left = nanos - (System.nanoTime() - origin);
        if (left > 0) {
            Thread.sleep(left / MS, (int) (left % MS));
        }
    }

    private static long now(long origin) {
        return System.nanoTime() - origin;
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / (double) S);
    }

    /**
     * Why a node is out of selection, from its API state: {@code ejected} (outlier detection), {@code health down}
     * (active checks), else {@code connect failure}. The API's {@code connectDown} is not read: this version
     * reports it as the negation of {@code healthy}, whatever the reason.
     */
    static Set<String> reasons(JsonNode node) {
        Set<String> reasons = new LinkedHashSet<>();
        if (node.path("ejected").asBoolean()) {
            reasons.add("ejected");
        }
        if (node.path("health").path("state").asText().equals("down")) {
            reasons.add("health down");
        }
        if (reasons.isEmpty() && !node.path("healthy").asBoolean(true)) {
            reasons.add("connect failure");
        }
        return reasons;
    }

    private interface Step {
        void apply(FaultNodeProcess node) throws IOException, InterruptedException;
    }

    private CaseResult fault(String name) throws IOException, InterruptedException {
        String what;
        Step fault;
        Step repair;
        switch (name) {
            case "kill" -> {
                what = "node c SIGKILLed, then started again on its port";
                fault = FaultNodeProcess::kill;
                repair = FaultNodeProcess::restart;
            }
            case "stop" -> {
                what = "node c hung with SIGSTOP, then SIGCONT";
                fault = n -> n.signal("STOP");
                repair = n -> n.signal("CONT");
            }
            case "500", "slow", "reset" -> {
                what = switch (name) {
                    case "500" -> "node c answers 500 to everything, then 200 again";
                    case "slow" -> "node c takes 2 s per request (response timeout " + ChaosDispatcher.RESPONSE_TIMEOUT_MS
                            + " ms), then answers at once again";
                    default -> "node c resets every connection, then answers again";
                };
                fault = n -> n.mode(name);
                repair = n -> n.mode("ok");
            }
            default -> throw new IllegalArgumentException("--cases: unknown case '" + name + "' (known: "
                    + String.join(", ", CASES) + ")");
        }
        progress(name, what);
        List<FaultNodeProcess> nodes = startNodes("a", "b", "c");
        try (ChaosDispatcher dispatcher = ChaosDispatcher.start(dispatcherJar, freshDir(name), nodes, STARTUP)) {
            awaitAllUp(dispatcher, nodes);
            FaultNodeProcess c = nodes.get(2);
            long origin = System.nanoTime();
            long originWall = System.currentTimeMillis();
            List<Outcome> outcomes;
            long fault0;
            long outAt;
            long repairAt;
            long backAt;
            Set<String> outBy = new LinkedHashSet<>();
            String loadAtStart = loadAverage();
            try (OpenLoad load = new OpenLoad(dispatcher.port(), rate, origin)) {
                warmUp(name, load, origin);
                fault0 = now(origin);
                fault.apply(c);
                progress(name, "fault at " + seconds(fault0));
                outAt = -1;
                while (outAt < 0) {
                    JsonNode node = dispatcher.node("c");
                    if (!node.path("healthy").asBoolean(true)) {
                        outBy.addAll(reasons(node));
                        outAt = Math.max(fault0, exactOutTime(node, originWall, now(origin)));
                    } else if (now(origin) - fault0 > 20 * S) {
                        throw new IOException("node c did not leave selection within 20 s of the fault: " + node);
                    } else {
                        Thread.sleep(POLL_MS);
                    }
                }
                progress(name, "c out of selection after " + seconds(outAt - fault0) + " (" + String.join(" + ", outBy) + ")");
                while (now(origin) < fault0 + HOLD_S * S) {
                    outBy.addAll(reasons(dispatcher.node("c")));
                    Thread.sleep(POLL_MS);
                }
                repairAt = now(origin);
                repair.apply(c);
                backAt = -1;
                while (backAt < 0) {
                    JsonNode node = dispatcher.node("c");
                    if (node.path("healthy").asBoolean(false)) {
                        backAt = now(origin);
                    } else if (now(origin) - repairAt > 30 * S) {
                        throw new IOException("node c did not come back within 30 s of its repair: " + node);
                    } else {
                        Thread.sleep(POLL_MS);
                    }
                }
                progress(name, "c back in selection " + seconds(backAt - repairAt) + " after its repair");
                until(origin, backAt + RAMP_S * S);
                outcomes = load.stop();
            }
            long end = now(origin) + 1;
            Map<Long, String> sentTo = ChaosReport.accessLogNodes(dispatcher.accessLog());
            Map<String, Long> phases = new LinkedHashMap<>();
            long faultPhase = fault0 - ChaosDispatcher.RESPONSE_TIMEOUT_MS * MS;
            phases.put("warm-up", ChaosReport.failed(outcomes, 0, faultPhase));
            phases.put("fault", ChaosReport.failed(outcomes, faultPhase, outAt));
            phases.put("out", ChaosReport.failed(outcomes, outAt, repairAt));
            phases.put("return", ChaosReport.failed(outcomes, repairAt, end));
            Long firstAnswer = null;
            for (Outcome o : outcomes) {
                if (o.startNanos() >= repairAt && "c".equals(o.node())) {
                    firstAnswer = (o.startNanos() - repairAt) / MS;
                    break;
                }
            }
            CaseResult result = new CaseResult(name, what, end / (double) S, outcomes.size(),
                    ChaosReport.failed(outcomes, 0, end), ChaosReport.causes(outcomes, 0, end),
                    ChaosReport.failuresByNode(outcomes, sentTo, faultPhase, end), phases,
                    (outAt - fault0) / MS, String.join(" + ", outBy), (backAt - repairAt) / MS, firstAnswer,
                    ChaosReport.shareBySecond(outcomes, "c", backAt, RAMP_S),
                    ChaosReport.expectedRamp(RAMP_S, ChaosDispatcher.SLOW_START_MS, nodes.size()),
                    loadAtStart + " → " + loadAverage(), "fault after " + seconds(fault0) + " of warm-up");
            progress(name, result.sent() + " sent, " + result.failed() + " failed ("
                    + ChaosReport.describe(result.failedByCause()) + "); by phase: " + ChaosReport.describe(phases)
                    + "; at node: " + ChaosReport.describe(result.failedByNode()) + "; ramp " + result.rampShare()
                    + "; " + ChaosReport.verdict(result));
            return result;
        } finally {
            closeAll(nodes);
        }
    }

    /**
     * When the dispatcher took the node out, on the load's clock: the start of its ejection or the end of the
     * health check that took it down, from the API's own timestamps, else the time of the poll.
     */
    static long exactOutTime(JsonNode node, long originWall, long polledAt) {
        long wall = Long.MAX_VALUE;
        if (node.path("ejected").asBoolean() && node.path("ejectedUntil").isNumber()) {
            // the n-th ejection in a row lasts n times the base; in a fresh cluster this is the first
            wall = Math.min(wall, node.path("ejectedUntil").asLong() - ChaosDispatcher.BASE_EJECTION_MS);
        }
        JsonNode check = node.path("health").path("lastCheck");
        if (node.path("health").path("state").asText().equals("down") && check.path("timestampMillis").isNumber()) {
            wall = Math.min(wall, check.path("timestampMillis").asLong() + check.path("durationMillis").asLong(0));
        }
        return wall == Long.MAX_VALUE ? polledAt : Math.min(polledAt, (wall - originWall) * MS);
    }

    private CaseResult policies() throws IOException, InterruptedException {
        String name = "policies";
        List<FaultNodeProcess> nodes = startNodes("a", "b", "c");
        try (ChaosDispatcher dispatcher = ChaosDispatcher.start(dispatcherJar, freshDir(name), nodes, STARTUP)) {
            awaitAllUp(dispatcher, nodes);
            List<String> policies = dispatcher.policies();
            String what = "a live policy switch every second through all " + policies.size() + " policies for "
                    + soakSeconds + " s";
            progress(name, what + ": " + String.join(", ", policies));
            long origin = System.nanoTime();
            List<Outcome> outcomes;
            long start;
            int switched = 0;
            List<String> refused = new ArrayList<>();
            String loadAtStart = loadAverage();
            try (OpenLoad load = new OpenLoad(dispatcher.port(), rate, origin)) {
                warmUp(name, load, origin);
                start = now(origin);
                for (int i = 0; i < soakSeconds; i++) {
                    until(origin, start + i * S);
                    String id = policies.get(i % policies.size());
                    try {
                        dispatcher.switchPolicy(id);
                        switched++;
                    } catch (IOException e) {
                        refused.add(id + ": " + e.getMessage());
                    }
                    if ((i + 1) % 10 == 0) {
                        progress(name, (i + 1) + " s, " + switched + " switches");
                    }
                }
                until(origin, start + soakSeconds * S);
                outcomes = load.stop();
            }
            String note = switched + " switches (" + policies.size() + " policies, each " + (soakSeconds / policies.size())
                    + "-" + ((soakSeconds + policies.size() - 1) / policies.size()) + " times)"
                    + (refused.isEmpty() ? ", none refused" : ", refused: " + String.join("; ", refused));
            return soakResult(name, what, outcomes, dispatcher.accessLog(), origin, start, loadAtStart, note);
        } finally {
            closeAll(nodes);
        }
    }

    private CaseResult reload() throws IOException, InterruptedException {
        String name = "reload";
        String what = reloads + " reloads in " + soakSeconds + " s, each adding or removing a node (POST /api/reload"
                + " and SIGHUP by turns)";
        progress(name, what);
        List<FaultNodeProcess> nodes = startNodes("a", "b", "c", "d");
        try (ChaosDispatcher dispatcher = ChaosDispatcher.start(dispatcherJar, freshDir(name), nodes, STARTUP)) {
            awaitAllUp(dispatcher, nodes);
            long origin = System.nanoTime();
            List<Outcome> outcomes;
            long start;
            int applied = 0;
            int viaApi = 0;
            List<String> problems = new ArrayList<>();
            long slowest = 0;
            String loadAtStart = loadAverage();
            try (OpenLoad load = new OpenLoad(dispatcher.port(), rate, origin)) {
                warmUp(name, load, origin);
                start = now(origin);
                long interval = soakSeconds * S / reloads;
                for (int i = 0; i < reloads; i++) {
                    until(origin, start + i * interval);
                    List<FaultNodeProcess> set = reloadSet(nodes, i);
                    List<String> expected = set.stream().map(FaultNodeProcess::name).toList();
                    long asked = System.nanoTime();
                    try {
                        dispatcher.rewriteNodes(set);
                        if (i % 4 < 2) {
                            dispatcher.reloadThroughApi();
                            viaApi++;
                        } else {
                            dispatcher.reloadWithSighup();
                        }
                        long deadline = asked + Math.min(interval, 5 * S);
                        while (!dispatcher.nodeNames().equals(expected) && System.nanoTime() - deadline < 0) {
                            Thread.sleep(10);
                        }
                        if (dispatcher.nodeNames().equals(expected)) {
                            applied++;
                            slowest = Math.max(slowest, System.nanoTime() - asked);
                        } else {
                            problems.add("reload " + (i + 1) + " not in force after " + seconds(System.nanoTime() - asked));
                        }
                    } catch (IOException e) {
                        problems.add("reload " + (i + 1) + ": " + e.getMessage());
                    }
                    if ((i + 1) % 10 == 0) {
                        progress(name, (i + 1) + " reloads, " + applied + " applied");
                    }
                }
                until(origin, start + soakSeconds * S);
                outcomes = load.stop();
            }
            String note = applied + " of " + reloads + " reloads in force (" + viaApi + " through the API, "
                    + (reloads - viaApi) + " by SIGHUP; the slowest took " + slowest / MS + " ms to show in the API)"
                    + (problems.isEmpty() ? "" : "; " + String.join("; ", problems));
            return soakResult(name, what, outcomes, dispatcher.accessLog(), origin, start, loadAtStart, note);
        } finally {
            closeAll(nodes);
        }
    }

    /** Reload {@code i}: even ones drop one node (a, b, c, d by turns), odd ones bring all four back. */
    static <T> List<T> reloadSet(List<T> all, int i) {
        if (i % 2 == 1) {
            return all;
        }
        List<T> set = new ArrayList<>(all);
        set.remove((i / 2) % all.size());
        return set;
    }

    private CaseResult soakResult(String name, String what, List<Outcome> outcomes, List<String> accessLog, long origin,
            long start, String loadAtStart, String note) {
        long end = now(origin) + 1;
        Map<String, Long> phases = new LinkedHashMap<>();
        phases.put("warm-up", ChaosReport.failed(outcomes, 0, start));
        phases.put("soak", ChaosReport.failed(outcomes, start, end));
        CaseResult result = new CaseResult(name, what, end / (double) S, outcomes.size(),
                ChaosReport.failed(outcomes, 0, end), ChaosReport.causes(outcomes, 0, end),
                ChaosReport.failuresByNode(outcomes, ChaosReport.accessLogNodes(accessLog), start, end), phases, null, null,
                null, null, List.of(), List.of(), loadAtStart + " → " + loadAverage(),
                "soak after " + seconds(start) + " of warm-up; " + note);
        progress(name, result.sent() + " sent, " + result.failed() + " failed (" + ChaosReport.describe(result.failedByCause())
                + "); by phase: " + ChaosReport.describe(phases) + "; at node: " + ChaosReport.describe(result.failedByNode())
                + "; " + note + "; " + ChaosReport.verdict(result));
        return result;
    }
}
