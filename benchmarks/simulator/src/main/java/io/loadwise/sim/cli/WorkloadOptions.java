package io.loadwise.sim.cli;

import io.loadwise.cli.UsageException;
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
import picocli.CommandLine.Option;

/**
 * The workload options of {@code simulate} (a picocli mixin): which trace to build, and at which rates to
 * replay it. {@link #check} validates them together once picocli has set them.
 */
final class WorkloadOptions {

    @Option(names = "--workload", paramLabel = "KIND", description = {"poisson (default) | surge | clf:PATH | wc98:PATH",
        "clf = Common/Combined Log Format access log, wc98 = 1998 World Cup binary log; .gz is read too"})
    String kind = "poisson";

    @Option(names = "--rate", paramLabel = "REQ/S", description = {"offered load(s) in requests/s: 250 | 250,500,750 | 250..1250:250",
        "required for poisson and surge; a log is time-scaled to each rate (seed 004)"})
    String rate;

    @Option(names = "--burstiness", paramLabel = "A,B", description = {
        "warp time so the trace has seed 004's burstiness <a, b> over 100 epochs",
        "(its SURGE trace: 1.53,0.48; World Cup: 1.58,0.40); applied before rate scaling"})
    String burstiness;

    @Option(names = "--time-scale", paramLabel = "F", description = "log replay only: multiply inter-arrival times by F instead of --rate")
    Double timeScale;

    @Option(names = "--requests", paramLabel = "N", description = "requests to generate (default 200000), or the first N records of a log")
    Integer requests;

    @Option(names = "--size-bytes", paramLabel = "B", description = "response size of every Poisson request, for size-based models (default 13564)")
    long sizeBytes = 13_564;

    @Option(names = "--ues", paramLabel = "N", description = "surge: user equivalents (default 400)")
    int ues = 400;

    @Option(names = "--files", paramLabel = "N", description = "surge: distinct files (default 2000)")
    int files = 2000;

    @Option(names = "--zipf", paramLabel = "S", description = "surge: Zipf popularity exponent (default 1.0)")
    double zipf = 1.0;

    @Option(names = "--dynamic-fraction", paramLabel = "F", description = "surge: share of files served dynamically (default 0.155)")
    double dynamicFraction = 0.155;

    private List<Double> rates = List.of();

    /** Checks the options against each other; call once before the other methods. */
    WorkloadOptions check() {
        return check(true);
    }

    /**
     * @param rateRequired false when the rates come from elsewhere ({@code --link-load}), which then also
     *     refuses {@code --rate}
     */
    WorkloadOptions check(boolean rateRequired) {
        rates = NumberLists.doubles("--rate", rate);
        for (double r : rates) {
            if (!(r > 0)) {
                throw new UsageException("--rate: rates must be positive, got " + r);
            }
        }
        boolean log = isLog();
        if (!log && !kind.equals("poisson") && !kind.equals("surge")) {
            throw new UsageException("--workload " + kind + ": expected poisson, surge, clf:PATH or wc98:PATH");
        }
        if (!rateRequired && (!rates.isEmpty() || timeScale != null)) {
            throw new UsageException("--scheduling sets the rates from --link-load; leave out --rate and --time-scale");
        }
        if (rateRequired && !log && rates.isEmpty()) {
            throw new UsageException("--rate is required for the " + kind + " workload");
        }
        if (!log && timeScale != null) {
            throw new UsageException("--time-scale applies to log replay only; use --rate");
        }
        if (timeScale != null && !rates.isEmpty()) {
            throw new UsageException("give either --rate or --time-scale, not both");
        }
        return this;
    }

    private boolean isLog() {
        return kind.startsWith("clf:") || kind.startsWith("wc98:");
    }

    /** The trace before any rate scaling, with the requested burstiness. */
    Trace baseTrace(long seed, PrintStream out) throws IOException {
        Trace trace = unmodulatedTrace(seed, out);
        if (burstiness == null) {
            return trace;
        }
        List<Double> ab = NumberLists.doubles("--burstiness", burstiness);
        if (ab.size() != 2) {
            throw new UsageException("--burstiness: expected A,B, e.g. 1.53,0.48");
        }
        try {
            return BurstModulator.modulate(trace, ab.get(0), ab.get(1), 100, seed + 3);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--burstiness: " + e.getMessage());
        }
    }

    private Trace unmodulatedTrace(long seed, PrintStream out) throws IOException {
        int count = requests != null ? requests : isLog() ? Integer.MAX_VALUE : 200_000;
        if (count < 2) {
            throw new UsageException("--requests: need at least 2, got " + count);
        }
        switch (kind) {
            case "poisson":
                // generated once and scaled to each rate: every rate replays the same Poisson sample path,
                // at exactly the requested mean rate
                return PoissonWorkload.generate(count, 1.0, sizeBytes, seed);
            case "surge":
                SurgeParameters p = new SurgeParameters(ues, files, zipf, 133_000, 3_119_822, dynamicFraction);
                return SurgeWorkload.generate(p, count, seed);
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
        Trace trace = loaded.trace().head(count);
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
            Trace t = timeScale != null ? base.timeScaled(NumberLists.positive("--time-scale", timeScale)) : base;
            out.put(t.meanRatePerSecond(), t);
        }
        return out;
    }
}
