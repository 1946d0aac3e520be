package io.loadwise.sim.cli;

import io.loadwise.capacity.CapacityPlanner;
import io.loadwise.cli.HelpOption;
import io.loadwise.cli.UsageException;
import io.loadwise.capacity.ResponseTimeChart;
import io.loadwise.sim.measure.ServiceRateMeter;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loadwise capacity}: queueing-model capacity plan, optionally from a measured μ. */
@Command(name = "capacity",
        customSynopsis = "loadwise capacity --servers N (--service-rate MU | --measure URL) [--arrival-rate LAMBDA] [--service-scv CS2]",
        description = {"Capacity plan with the queueing models M/M/1, (M/M/1)^n, round robin (E_n/M/1) and M/M/n (Erlang C),",
            "or their M/G forms (Pollaczek-Khinchine, Krämer-Langenbach-Belz, Lee-Longton) for a given service variability.",
            "Predicts utilisation, mean response time and mean number in system with the formulas of seeds "
            + "000/003; marks the 80 %% operating point and the ≈ 90 %% limit of "
            + "model validity; shows the effect of one node more or less."},
        footer = {"Example: loadwise capacity --servers 2 --service-rate 104.13 --arrival-rate 100",
            "         (M/M/2 mean response ≈ 12.48 ms; seed 000 measured 12.49 ms)",
            "",
            "Exit codes: 0 ok, 1 measurement or I/O failure, 2 bad options."})
public final class CapacityCommand implements CommandRun.Body {

    @Option(names = "--servers", paramLabel = "N", description = "node count(s): 2 | 1,2,4 | 1..5")
    String servers;

    @Option(names = "--service-rate", paramLabel = "MU",
            description = "service rate of one node, requests/s (e.g. 104.13, seed 000's blade)")
    Double serviceRate;

    @Option(names = "--arrival-rate", paramLabel = "LAMBDA", description = {
        "total arrival rate(s), requests/s: 100 | 50,100,150 | 2..200:2",
        "(default: 10 %% .. 95 %% of each node count's capacity)"})
    String arrivalRate;

    @Option(names = "--service-scv", paramLabel = "CS2", description = {
        "squared coefficient of variation of the service time, Var/mean²: 1 exponential (default),",
        "0 constant (CPU-bound, seed 000's blades), > 1 heavy-tailed (simulate prints it for its service model)"})
    double serviceScv = 1;

    @Option(names = "--measure", paramLabel = "URL",
            description = "calibrate μ by driving URL with a short closed-loop load, then plan with it")
    String measure;

    @Option(names = "--max-concurrency", paramLabel = "C", description = "--measure: highest number of concurrent workers (default 32)")
    int maxConcurrency = 32;

    @Option(names = "--step-seconds", paramLabel = "S",
            description = "--measure: measured seconds per concurrency step, plus 20 %% warm-up (default 3)")
    double stepSeconds = 3;

    @Option(names = "--timeout-ms", paramLabel = "MS", description = "--measure: per-request timeout (default 10000)")
    long timeoutMs = 10_000;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "also draw predicted response time against λ for each node count")
    Path plot;

    @Mixin
    HelpOption help;

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(run(args, System.out, System.err));
    }

    /** {@code loadwise capacity ARGS}; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return Main.run(Stream.concat(Stream.of("capacity"), Stream.of(args)).toArray(String[]::new), out, err);
    }

    @Override
    public int call(PrintStream out) throws IOException, InterruptedException {
        if ((measure != null) == (serviceRate != null)) {
            throw new UsageException("give exactly one of --service-rate MU or --measure URL");
        }
        List<Integer> counts = NumberLists.ints("--servers", servers);
        List<Double> lambdas = NumberLists.doubles("--arrival-rate", arrivalRate);
        if (counts.isEmpty() && measure == null) {
            throw new UsageException("--servers is required (e.g. --servers 2 or --servers 1..5)");
        }
        for (int n : counts) {
            if (n < 1 || n > 10_000) {
                throw new UsageException("--servers: node counts must be within 1..10000, got " + n);
            }
        }
        for (double l : lambdas) {
            if (!(l >= 0)) {
                throw new UsageException("--arrival-rate: rates must be >= 0, got " + l);
            }
        }
        if (!(serviceScv >= 0) || Double.isInfinite(serviceScv)) {
            throw new UsageException("--service-scv: must be a number >= 0 (0 constant, 1 exponential), got " + serviceScv);
        }
        double mu = measure != null ? measure(out) : NumberLists.positive("--service-rate", serviceRate);
        if (counts.isEmpty()) {
            return 0; // calibration only
        }
        List<Integer> sorted = counts.stream().sorted().distinct().toList();
        CapacityPlanner planner = new CapacityPlanner(mu, serviceScv);
        planner.printPlan(sorted, lambdas, out);
        if (plot != null) {
            ResponseTimeChart.write(mu, sorted, plot);
            out.println("wrote " + plot);
        }
        return 0;
    }

    private double measure(PrintStream out) throws IOException, InterruptedException {
        URI uri;
        try {
            uri = new URI(measure);
        } catch (URISyntaxException e) {
            throw new UsageException("--measure: '" + measure + "' is not a URL: " + e.getMessage());
        }
        ServiceRateMeter meter = new ServiceRateMeter(
                Duration.ofMillis(Math.round(NumberLists.positive("--step-seconds", stepSeconds) * 1e3)),
                maxConcurrency, 0.05, Duration.ofMillis(timeoutMs));
        out.println("Measuring " + uri + " with a closed-loop load (concurrency 1, 2, 4, … until throughput stops rising)");
        ServiceRateMeter.Measurement m = meter.measure(uri);
        out.printf(Locale.ROOT, "  %11s %10s %8s %12s %14s%n", "concurrency", "completed", "failed", "throughput/s", "mean resp ms");
        for (ServiceRateMeter.Step s : m.steps()) {
            out.printf(Locale.ROOT, "  %11d %10d %8d %12.2f %14.3f%n", s.concurrency(), s.completed(), s.failed(),
                    s.throughput(), s.meanResponseMillis());
        }
        out.printf(Locale.ROOT, "Measured μ = %.2f req/s%s%n%n", m.serviceRate(), m.saturated() ? ""
                : " (throughput was still rising at the highest concurrency: μ is at least this; raise --max-concurrency)");
        return m.serviceRate();
    }
}
