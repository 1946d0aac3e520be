package io.loadwise.bench.chaos;

import io.loadwise.testsupport.faults.FaultNodeProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code loadwise bench soak}: the shipped dispatcher in front of four chaos nodes (a, b, c, d) under one
 * open-loop load ({@link OpenLoad} with a {@link SoakStats} sink, so nothing grows with the length of the run)
 * for N minutes, one fault every S seconds by turns ({@link #FAULTS}), the dispatcher's RSS, descriptors and
 * threads sampled from /proc every {@value #SAMPLE_S} s and a progress line each minute. The cluster is
 * {@link ChaosDispatcher}'s, the node processes and the helpers are {@link ChaosRun}'s.
 */
public final class SoakRun {

    /** The faults, in rotation order; {@code etcd} only with the etcd store. */
    public static final List<String> FAULTS = List.of("kill", "reload", "policy", "etcd", "slow", "storm");
    static final int SAMPLE_S = 10;
    static final int STORM_CONNECTIONS = 3_000;
    static final int STORM_THREADS = 32;
    /** The capacity ramp's steps, req/s, {@value #RAMP_STEP_S} s each after {@value #RAMP_WARM_UP_S} s at the first. */
    static final int[] RAMP = {250, 500, 1_000, 2_000, 4_000};
    static final int RAMP_STEP_S = 5;
    static final int RAMP_WARM_UP_S = 15;
    static final double RAMP_MAX_P99_MS = 200;
    static final String DROPPED = "d";
    /** Every request of the load is an idempotent GET, so a response timeout is retried too (not by default). */
    static final List<String> RETRY_ON = List.of("connect-failure", "reset", "refused-stream", "response-timeout");
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    private final Path jar;
    private final Path work;
    private final int minutes;
    private final int explicitRate;
    private final int faultEvery;
    private final boolean etcd;
    private final PrintStream out;
    private final AtomicLong origin = new AtomicLong();
    private final List<SoakFault> faults = new CopyOnWriteArrayList<>();
    private final List<KillWindows.Window> windows = new CopyOnWriteArrayList<>();
    private final List<ProcSample> samples = new CopyOnWriteArrayList<>();
    private final AtomicInteger printed = new AtomicInteger();
    private int kills;
    private int slows;
    private int policySwitches;
    private int reloads;
    private int etcdRestarts;
    private String policy = "round-robin";

    /** @param explicitRate the load's rate, or 0 to take 70 % of the capacity the ramp measures */
    public SoakRun(Path jar, Path work, int minutes, int explicitRate, int faultEvery, boolean etcd, PrintStream out) {
        this.jar = jar;
        this.work = work;
        this.minutes = minutes;
        this.explicitRate = explicitRate;
        this.faultEvery = faultEvery;
        this.etcd = etcd;
        this.out = out;
    }

    /** The faults this run rotates through. */
    static List<String> rotation(boolean etcd) {
        return FAULTS.stream().filter(f -> etcd || !f.equals("etcd")).toList();
    }

    private void progress(String line) {
        out.println("soak: " + line);
        out.flush();
    }

    private long now() {
        return System.nanoTime() - origin.get();
    }

    public SoakResult run() throws IOException, InterruptedException {
        List<FaultNodeProcess> nodes = ChaosRun.startNodes("a", "b", "c", DROPPED);
        EtcdMembers members = null;
        Path dir = ChaosRun.freshDir(work, "soak");
        try {
            if (etcd) {
                members = EtcdMembers.start(dir.resolve("etcd"), 3);
                progress("etcd: 3 members, " + String.join(", ", members.endpoints()));
            }
            try (ChaosDispatcher dispatcher = ChaosDispatcher.start(jar, dir, nodes, ChaosRun.STARTUP, members, RETRY_ON)) {
                ChaosRun.awaitAllUp(dispatcher, nodes);
                return soak(dispatcher, nodes, members);
            }
        } finally {
            ChaosRun.closeAll(nodes);
            if (members != null) {
                members.close();
            }
        }
    }

    private SoakResult soak(ChaosDispatcher dispatcher, List<FaultNodeProcess> nodes, EtcdMembers members)
            throws IOException, InterruptedException {
        List<String> policies = dispatcher.policies();
        String loadAtStart = ChaosRun.loadAverage();
        int rate;
        String rateSource;
        if (explicitRate > 0) {
            rate = explicitRate;
            rateSource = "--rate " + explicitRate;
        } else {
            String[] ramp = new String[1];
            int capacity = ramp(dispatcher, ramp);
            rate = Math.max(10, (int) Math.round(capacity * 0.7));
            rateSource = "70 % of the measured capacity, " + capacity + " req/s (" + ramp[0] + ")";
        }
        progress(minutes + " min at " + rate + " req/s (" + rateSource + "), a fault every " + faultEvery + " s: "
                + String.join(", ", rotation(etcd)) + (etcd ? "" : "; etcd member restarts skipped (no --etcd)"));
        SoakStats stats = new SoakStats();
        ScheduledExecutorService monitor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "soak-monitor");
            t.setDaemon(true);
            return t;
        });
        origin.set(System.nanoTime());
        long end = minutes * 60L * S;
        try (OpenLoad load = new OpenLoad(dispatcher.port(), rate, origin.get(), stats)) {
            monitor.scheduleAtFixedRate(() -> sample(dispatcher.pid()), 0, SAMPLE_S, TimeUnit.SECONDS);
            monitor.scheduleAtFixedRate(() -> printMinutes(stats, false), 62, 60, TimeUnit.SECONDS);
            List<String> rotation = rotation(etcd);
            for (int k = 1; (long) k * faultEvery * S < end; k++) {
                ChaosRun.until(origin.get(), k * faultEvery * S);
                if (now() >= end) {
                    break;
                }
                String kind = rotation.get((k - 1) % rotation.size());
                faults.add(inject(k, kind, dispatcher, nodes, policies, members));
            }
            ChaosRun.until(origin.get(), end);
            load.drain();
        } finally {
            monitor.shutdownNow();
            monitor.awaitTermination(5, TimeUnit.SECONDS);
        }
        sample(dispatcher.pid());
        printMinutes(stats, true);
        return new SoakResult(minutes, rate, rateSource, faultEvery, etcd, loadAtStart + " → " + ChaosRun.loadAverage(),
                stats, List.copyOf(samples), List.copyOf(faults), List.copyOf(windows));
    }

    private void sample(long pid) {
        try {
            samples.add(ProcSample.read(Path.of("/proc"), pid, now() / (double) S));
        } catch (IOException | RuntimeException e) {
            progress("could not sample the dispatcher: " + e.getMessage());
        }
    }

    /** Prints the minutes that have ended (all of them at the end), once each. */
    private synchronized void printMinutes(SoakStats stats, boolean all) {
        int ended = all ? minutes : (int) Math.min(minutes, (now() - 2 * S) / (60 * S));
        for (int m = printed.get(); m < ended; m = printed.incrementAndGet()) {
            SoakStats.Minute row = stats.minute(m);
            ProcSample last = null;
            for (ProcSample s : samples) {
                if (s.seconds() < (m + 1) * 60.0) {
                    last = s;
                }
            }
            List<String> injected = new ArrayList<>();
            for (SoakFault f : faults) {
                if ((int) (f.atSeconds() / 60) == m) {
                    injected.add(f.kind() + (f.ok() ? "" : " (FAILED)"));
                }
            }
            progress(String.format(Locale.ROOT, "minute %d: %d requests, %d failed, p99 %.1f ms, RSS %s, fault: %s",
                    m + 1, row.requests(), row.failed(), row.p99Millis(),
                    last == null ? "?" : (last.rssKb() / 1024) + " MB", injected.isEmpty() ? "-" : String.join(", ", injected)));
        }
    }

    /**
     * The capacity ramp: {@value #RAMP_WARM_UP_S} s at the first step, not judged (fresh JVMs), then each step for {@value #RAMP_STEP_S} s while the
     * last one held (no failure, p99 at most {@value #RAMP_MAX_P99_MS} ms, at least 95 % of its requests answered
     * in its time). Returns the answered rate of the highest step that held (the first step's rate if none did).
     */
    private int ramp(ChaosDispatcher dispatcher, String[] description) throws InterruptedException {
        rampStep(dispatcher, RAMP[0], RAMP_WARM_UP_S);
        int capacity = RAMP[0];
        List<String> steps = new ArrayList<>();
        for (int target : RAMP) {
            SoakStats step = rampStep(dispatcher, target, RAMP_STEP_S);
            SoakStats.Minute m = step.minute(0);
            long ok = m.requests() - m.failed();
            boolean held = m.failed() == 0 && m.p99Millis() <= RAMP_MAX_P99_MS && ok >= 0.95 * target * RAMP_STEP_S;
            steps.add(String.format(Locale.ROOT, "%d: %d/s p99 %.1f ms%s", target, ok / RAMP_STEP_S, m.p99Millis(),
                    m.failed() > 0 ? " " + m.failed() + " failed" : ""));
            progress("ramp " + steps.get(steps.size() - 1) + (held ? "" : ", did not hold"));
            if (!held) {
                break;
            }
            capacity = (int) (ok / RAMP_STEP_S);
        }
        description[0] = "ramp " + String.join("; ", steps);
        return capacity;
    }

    private static SoakStats rampStep(ChaosDispatcher dispatcher, int rate, int seconds) throws InterruptedException {
        SoakStats stats = new SoakStats();
        long start = System.nanoTime();
        try (OpenLoad load = new OpenLoad(dispatcher.port(), rate, start, stats)) {
            ChaosRun.until(start, seconds * S);
            load.drain();
        }
        return stats;
    }

    private SoakFault inject(int number, String kind, ChaosDispatcher dispatcher, List<FaultNodeProcess> nodes,
            List<String> policies, EtcdMembers members) throws InterruptedException {
        long at = now();
        String outcome;
        boolean ok = true;
        try {
            outcome = switch (kind) {
                case "kill" -> kill(dispatcher, nodes.get(kills++ % 3));
                case "reload" -> reload(dispatcher, nodes, members);
                case "policy" -> switchPolicy(dispatcher, policies);
                case "etcd" -> restartMember(dispatcher, members);
                case "slow" -> slow(dispatcher, nodes.get(slows++ % 3));
                case "storm" -> storm(dispatcher.port());
                default -> throw new IllegalArgumentException("unknown fault " + kind);
            };
        } catch (IOException | RuntimeException e) {
            ok = false;
            outcome = "FAILED: " + e.getMessage();
        }
        SoakFault fault = new SoakFault(number, kind, at / (double) S, (now() - at) / (double) S, ok, outcome);
        progress(String.format(Locale.ROOT, "fault %d at %.0f s: %s: %s", number, fault.atSeconds(), kind, outcome));
        return fault;
    }

    /** Polls the node's API state until {@code healthy} is as wanted, at most {@code seconds}; returns when. */
    private long awaitHealthy(ChaosDispatcher dispatcher, String node, boolean healthy, int seconds)
            throws IOException, InterruptedException {
        long deadline = now() + seconds * S;
        while (dispatcher.node(node).path("healthy").asBoolean(!healthy) != healthy) {
            if (now() > deadline) {
                throw new IOException("node " + node + " was not " + (healthy ? "back in" : "out of") + " selection within "
                        + seconds + " s");
            }
            Thread.sleep(ChaosRun.POLL_MS);
        }
        return now();
    }

    private String kill(ChaosDispatcher dispatcher, FaultNodeProcess node) throws IOException, InterruptedException {
        long killAt = now();
        node.kill();
        long backAt = -1;
        try {
            long outAt = awaitHealthy(dispatcher, node.name(), false, 20);
            node.restart();
            backAt = awaitHealthy(dispatcher, node.name(), true, 30);
            return String.format(Locale.ROOT, "node %s SIGKILLed, out of selection after %.1f s, restarted, back in"
                    + " selection %.1f s after the kill", node.name(), (outAt - killAt) / (double) S,
                    (backAt - killAt) / (double) S);
        } finally {
            windows.add(KillWindows.Window.of(killAt, backAt < 0 ? now() : backAt));
            try {
                node.restart();
            } catch (IllegalStateException running) {
                // restarted above
            }
        }
    }

    private String reload(ChaosDispatcher dispatcher, List<FaultNodeProcess> nodes, EtcdMembers members)
            throws IOException, InterruptedException {
        boolean remove = reloads % 2 == 0;
        List<FaultNodeProcess> set = remove ? nodes.subList(0, 3) : nodes;
        String how;
        long asked = now();
        if (members != null) {
            dispatcher.putClusterInEtcd(members, set);
            how = "the cluster's key rewritten in etcd";
        } else {
            dispatcher.rewriteNodes(set);
            if (reloads % 4 < 2) {
                dispatcher.reloadThroughApi();
                how = "POST /api/reload";
            } else {
                dispatcher.reloadWithSighup();
                how = "SIGHUP";
            }
        }
        reloads++;
        List<String> expected = set.stream().map(FaultNodeProcess::name).toList();
        long deadline = asked + 10 * S;
        while (!dispatcher.nodeNames().equals(expected)) {
            if (now() > deadline) {
                throw new IOException("reload (" + how + ") not in force after 10 s: " + dispatcher.nodeNames());
            }
            Thread.sleep(10);
        }
        return String.format(Locale.ROOT, "node %s %s (%s), in force after %d ms", DROPPED, remove ? "removed" : "added",
                how, (now() - asked) / MS);
    }

    private String switchPolicy(ChaosDispatcher dispatcher, List<String> policies) throws IOException, InterruptedException {
        String next = policies.get(policySwitches++ % policies.size());
        if (next.equals(policy)) {
            next = policies.get(policySwitches++ % policies.size());
        }
        String from = policy;
        dispatcher.switchPolicy(next);
        policy = next;
        return "policy " + from + " → " + next;
    }

    private String restartMember(ChaosDispatcher dispatcher, EtcdMembers members) throws IOException, InterruptedException {
        int member = etcdRestarts++ % members.size();
        long asked = now();
        members.restart(member);
        return String.format(Locale.ROOT, "etcd member %d stopped and started again, answering after %.1f s; %d nodes in"
                + " force", member, (now() - asked) / (double) S, dispatcher.nodeNames().size());
    }

    private String slow(ChaosDispatcher dispatcher, FaultNodeProcess node) throws IOException, InterruptedException {
        int hold = Math.max(5, Math.min(15, faultEvery / 3));
        long at = now();
        node.mode("slow");
        String out;
        try {
            ChaosRun.until(origin.get(), at + hold * S);
            out = dispatcher.node(node.name()).path("healthy").asBoolean(true) ? "still in selection" : "out of selection";
        } finally {
            node.mode("ok");
        }
        long back = awaitHealthy(dispatcher, node.name(), true, 30);
        return String.format(Locale.ROOT, "node %s answered in 2 s for %d s (%s at its end), back in selection %.1f s"
                + " after", node.name(), hold, out, (back - at - hold * S) / (double) S);
    }

    /** {@value #STORM_CONNECTIONS} new connections, one request each with {@code Connection: close}. */
    private static String storm(int port) throws IOException, InterruptedException {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger answered = new AtomicInteger();
        List<String> errors = new CopyOnWriteArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(STORM_THREADS);
        long start = System.nanoTime();
        for (int t = 0; t < STORM_THREADS; t++) {
            pool.execute(() -> {
                for (int i = next.getAndIncrement(); i < STORM_CONNECTIONS; i = next.getAndIncrement()) {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
                        s.setSoTimeout(10_000);
                        OutputStream o = s.getOutputStream();
                        o.write(("GET /work?storm=" + i + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
                        o.flush();
                        InputStream in = s.getInputStream();
                        String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
                        in.readAllBytes();
                        if (head.equals("HTTP/1.1 200")) {
                            answered.incrementAndGet();
                        } else if (errors.size() < 5) {
                            errors.add("'" + head + "'");
                        }
                    } catch (IOException e) {
                        if (errors.size() < 5) {
                            errors.add(OpenLoad.cause(e));
                        }
                    }
                }
            });
        }
        pool.shutdown();
        if (!pool.awaitTermination(120, TimeUnit.SECONDS)) {
            pool.shutdownNow();
        }
        double took = (System.nanoTime() - start) / (double) S;
        int failed = STORM_CONNECTIONS - answered.get();
        String result = String.format(Locale.ROOT, "%d new connections from %d threads in %.1f s (%.0f/s): %d answered 200, %d"
                + " failed%s", STORM_CONNECTIONS, STORM_THREADS, took, STORM_CONNECTIONS / took, answered.get(), failed,
                errors.isEmpty() ? "" : " (" + String.join(", ", errors) + ")");
        if (failed > 0) {
            throw new IOException(result);
        }
        return result;
    }
}
