package io.loadwise.sim.cli;

import io.loadwise.sim.workload.AccessLogReader;
import io.loadwise.sim.workload.BurstModulator;
import io.loadwise.sim.workload.LoadedTrace;
import io.loadwise.sim.workload.PoissonWorkload;
import io.loadwise.sim.workload.SurgeParameters;
import io.loadwise.sim.workload.SurgeWorkload;
import io.loadwise.sim.workload.Trace;
import io.loadwise.sim.workload.WorldCupTraceReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The workload options of {@code simulate}: which trace to build, and at which rates to replay it. */
final class WorkloadOptions {

    private final CommandLine cl;
    private final String kind;
    private final long seed;
    private final List<Double> rates;

    private WorkloadOptions(CommandLine cl, String kind, long seed, List<Double> rates) {
        this.cl = cl;
        this.kind = kind;
        this.seed = seed;
        this.rates = rates;
    }

    static WorkloadOptions from(CommandLine cl, long seed) {
        String kind = cl.get("workload", "poisson");
        List<Double> rates = cl.getDoubles("rate");
        for (double r : rates) {
            if (!(r > 0)) {
                throw new UsageException("--rate: rates must be positive, got " + r);
            }
        }
        boolean log = kind.startsWith("clf:") || kind.startsWith("wc98:");
        if (!log && !kind.equals("poisson") && !kind.equals("surge")) {
            throw new UsageException("--workload " + kind + ": expected poisson, surge, clf:PATH or wc98:PATH");
        }
        if (!log && rates.isEmpty()) {
            throw new UsageException("--rate is required for the " + kind + " workload");
        }
        if (!log && cl.has("time-scale")) {
            throw new UsageException("--time-scale applies to log replay only; use --rate");
        }
        if (cl.has("time-scale") && !rates.isEmpty()) {
            throw new UsageException("give either --rate or --time-scale, not both");
        }
        return new WorkloadOptions(cl, kind, seed, rates);
    }

    /** The trace before any rate scaling, with the requested burstiness. */
    Trace baseTrace(PrintStream out) throws IOException {
        Trace trace = unmodulatedTrace(out);
        if (!cl.has("burstiness")) {
            return trace;
        }
        List<Double> ab = cl.getDoubles("burstiness");
        if (ab.size() != 2) {
            throw new UsageException("--burstiness: expected A,B, e.g. 1.53,0.48");
        }
        try {
            return BurstModulator.modulate(trace, ab.get(0), ab.get(1), 100, seed + 3);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--burstiness: " + e.getMessage());
        }
    }

    private Trace unmodulatedTrace(PrintStream out) throws IOException {
        int requests = cl.getInt("requests", kind.startsWith("clf:") || kind.startsWith("wc98:") ? Integer.MAX_VALUE : 200_000);
        if (requests < 2) {
            throw new UsageException("--requests: need at least 2, got " + requests);
        }
        switch (kind) {
            case "poisson":
                // generated once and scaled to each rate: every rate replays the same Poisson sample path,
                // at exactly the requested mean rate
                return PoissonWorkload.generate(requests, 1.0, cl.getLong("size-bytes", 13_564), seed);
            case "surge":
                SurgeParameters p = new SurgeParameters(cl.getInt("ues", 400), cl.getInt("files", 2000),
                        cl.getDouble("zipf", 1.0), 133_000, 3_119_822, cl.getDouble("dynamic-fraction", 0.155));
                return SurgeWorkload.generate(p, requests, seed);
            default:
                break;
        }
        boolean clf = kind.startsWith("clf:");
        Path file = Path.of(kind.substring(clf ? 4 : 5));
        if (!Files.isReadable(file)) {
            throw new UsageException("--workload " + kind + ": cannot read " + file);
        }
        LoadedTrace loaded = clf ? AccessLogReader.read(file) : WorldCupTraceReader.read(file);
        if (loaded.malformed() > 0) {
            out.println("warning: skipped " + loaded.malformed() + " malformed records; first: " + loaded.firstMalformed());
        }
        if (loaded.excludedErrors() > 0) {
            out.println("note: left out " + loaded.excludedErrors() + " requests answered with status >= 400");
        }
        Trace trace = loaded.trace().head(requests);
        if (trace.size() < 2) {
            throw new UsageException("--workload " + kind + ": the log has fewer than 2 usable requests");
        }
        return trace;
    }

    /** The trace at each requested rate, keyed by the rate (or by its own rate when replayed as is). */
    Map<Double, Trace> traces(Trace base) {
        Map<Double, Trace> out = new LinkedHashMap<>();
        if (!rates.isEmpty()) {
            for (double r : rates) {
                out.put(r, base.scaledToRate(r));
            }
        } else {
            Trace t = cl.has("time-scale") ? base.timeScaled(cl.getPositive("time-scale", 1)) : base;
            out.put(t.meanRatePerSecond(), t);
        }
        return out;
    }
}
