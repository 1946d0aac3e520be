package io.loadwise.sim.cli;

import io.loadwise.cli.UsageException;
import io.loadwise.sim.link.ClientPath;
import io.loadwise.sim.link.LinkSimulation;
import io.loadwise.sim.link.ResponseDiscipline;
import io.loadwise.sim.link.SchedulingReport;
import io.loadwise.sim.link.WanProfile;
import io.loadwise.sim.workload.Trace;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import picocli.CommandLine.Option;

/**
 * The response-scheduling options of {@code simulate} (a picocli mixin): with {@code --scheduling}, the
 * command runs seed 002's experiment, one server's bottleneck link draining responses under PS, FIFO, SRPT
 * or SRRT, instead of the cluster.
 */
final class SchedulingOptions {

    @Option(names = "--scheduling", paramLabel = "D[,D..]", description = {
        "response scheduling on one server's bottleneck link instead of the cluster (seed 002):",
        "ps (fair share, the baseline), fifo, srpt (class by remaining bytes), srrt (by RTT·(1 + remaining/cwnd))"})
    String disciplines;

    @Option(names = "--link-mbps", paramLabel = "MBPS", description = "--scheduling: link capacity, Mbit/s (default 10; seed 002: 10 and 100)")
    double linkMbps = 10;

    @Option(names = "--link-load", paramLabel = "RHO", description = {
        "--scheduling: offered link utilisation(s), λ·E[size]/capacity: 0.9 | 0.5,0.7,0.9 | 0.1..0.9:0.2"})
    String linkLoad;

    @Option(names = "--wan", paramLabel = "PROFILE", description = {
        "--scheduling: clients' paths: seed002 (default; Table 2, WAN1-6, RTT 50-350 ms, loss 0.5-3 %%, one sixth of",
        "the requests each) or none (no RTT, no window limit: the M/G/1 textbook case)"})
    String wan = "seed002";

    boolean enabled() {
        return disciplines != null;
    }

    int run(WorkloadOptions workload, long seed, int warmup, PrintStream out) throws IOException {
        List<ResponseDiscipline> list = new ArrayList<>();
        for (String id : disciplines.split(",")) {
            ResponseDiscipline d = ResponseDiscipline.of(id.trim());
            if (!list.contains(d)) {
                list.add(d);
            }
        }
        double capacity = NumberLists.positive("--link-mbps", linkMbps) * 1e6 / 8;
        List<Double> loads = NumberLists.doubles("--link-load", linkLoad);
        if (loads.isEmpty()) {
            throw new UsageException("--link-load is required with --scheduling (e.g. --link-load 0.5,0.7,0.9)");
        }
        for (double l : loads) {
            if (!(l > 0 && l < 1)) {
                throw new UsageException("--link-load: loads must be within (0, 1) for a steady state, got " + l);
            }
        }
        List<WanProfile> wans = switch (wan) {
            case "seed002" -> WanProfile.SEED002;
            case "none" -> List.of();
            default -> throw new UsageException("--wan " + wan + ": expected seed002 or none");
        };
        Trace base = workload.baseTrace(seed, out);
        if (warmup >= base.size()) {
            throw new UsageException("--warmup: a warm-up of " + warmup + " requests leaves none of the " + base.size());
        }
        ClientPath[] clients = wans.isEmpty() ? unlimited(base.size())
                : LinkSimulation.clients(base.size(), wans, new SplittableRandom(seed + 4));
        out.printf(Locale.ROOT, "workload: %s, %d requests, mean size %.0f B%n", base.description(), base.size(),
                base.meanSizeBytes());
        out.printf(Locale.ROOT, "link:     %.4g Mbit/s; clients: %s%n", linkMbps, wans.isEmpty()
                ? "no RTT, no window limit" : "seed 002's WAN1-WAN6, one sixth of the requests each, window √(3/(2p)) "
                + "segments of " + ClientPath.MSS + " B (Mathis et al.), no slow start");
        LinkSimulation link = new LinkSimulation(capacity);
        SchedulingReport report = new SchedulingReport(wans, warmup);
        for (double load : loads) {
            double rate = load * capacity / base.meanSizeBytes();
            Trace trace = base.scaledToRate(rate);
            out.printf(Locale.ROOT, "running link load %.2f (%.2f req/s)…%n", load, rate);
            for (ResponseDiscipline d : list) {
                report.add(load, rate, link.run(trace, clients, d));
            }
        }
        report.print(out);
        return 0;
    }

    private static ClientPath[] unlimited(int n) {
        ClientPath[] paths = new ClientPath[n];
        ClientPath none = new ClientPath(-1, 0, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(paths, none);
        return paths;
    }
}
