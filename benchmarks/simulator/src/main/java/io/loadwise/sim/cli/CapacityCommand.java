package io.loadwise.sim.cli;

import io.loadwise.capacity.CapacityPlanner;
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

/** {@code loadwise capacity}: queueing-model capacity plan, optionally from a measured μ. */
public final class CapacityCommand {

    static final CommandLine.Spec SPEC = new CommandLine.Spec()
            .option("servers", "N", "node count(s): 2 | 1,2,4 | 1..5")
            .option("service-rate", "MU", "service rate of one node, requests/s (e.g. 104.13, seed 000's blade)")
            .option("arrival-rate", "LAMBDA", "total arrival rate(s), requests/s: 100 | 50,100,150 | 2..200:2\n"
                    + "(default: 10 % .. 95 % of each node count's capacity)")
            .option("measure", "URL", "calibrate μ by driving URL with a short closed-loop load, then plan with it")
            .option("max-concurrency", "C", "--measure: highest number of concurrent workers (default 32)")
            .option("step-seconds", "S", "--measure: measured seconds per concurrency step, plus 20 % warm-up (default 3)")
            .option("timeout-ms", "MS", "--measure: per-request timeout (default 10000)")
            .option("plot", "FILE.png", "also draw predicted response time against λ for each node count")
            .flag("help", "show this help");

    private CapacityCommand() {
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return CommandRun.run("capacity", SPEC, usage(), args, out, err, cl -> plan(cl, out));
    }

    static String usage() {
        return "Usage: loadwise capacity --servers N (--service-rate MU | --measure URL) [--arrival-rate LAMBDA]\n\n"
                + "Predicts utilisation, mean response time and mean number in system with M/M/1, (M/M/1)^n and\n"
                + "M/M/n (Erlang C), the formulas of seeds 000/003; marks the 80 % operating point and the ≈ 90 %\n"
                + "limit of model validity; shows the effect of one node more or less.\n\nOptions:\n" + SPEC.usage()
                + "\nExample: loadwise capacity --servers 2 --service-rate 104.13 --arrival-rate 100\n"
                + "         (M/M/2 mean response ≈ 12.48 ms; seed 000 measured 12.49 ms)\n"
                + "\nExit codes: 0 ok, 1 measurement or I/O failure, 2 bad options.\n";
    }

    private static int plan(CommandLine cl, PrintStream out) throws IOException, InterruptedException {
        if (cl.has("measure") == cl.has("service-rate")) {
            throw new UsageException("give exactly one of --service-rate MU or --measure URL");
        }
        List<Integer> servers = cl.getInts("servers");
        List<Double> lambdas = cl.getDoubles("arrival-rate");
        if (servers.isEmpty() && !cl.has("measure")) {
            throw new UsageException("--servers is required (e.g. --servers 2 or --servers 1..5)");
        }
        for (int n : servers) {
            if (n < 1 || n > 10_000) {
                throw new UsageException("--servers: node counts must be within 1..10000, got " + n);
            }
        }
        for (double l : lambdas) {
            if (!(l >= 0)) {
                throw new UsageException("--arrival-rate: rates must be >= 0, got " + l);
            }
        }
        double mu = cl.has("measure") ? measure(cl, out) : cl.getPositive("service-rate", 1);
        if (servers.isEmpty()) {
            return 0; // calibration only
        }
        List<Integer> sorted = servers.stream().sorted().distinct().toList();
        CapacityPlanner planner = new CapacityPlanner(mu);
        planner.printPlan(sorted, lambdas, out);
        if (cl.has("plot")) {
            Path file = Path.of(cl.get("plot", "capacity.png"));
            ResponseTimeChart.write(mu, sorted, file);
            out.println("wrote " + file);
        }
        return 0;
    }

    private static double measure(CommandLine cl, PrintStream out) throws IOException, InterruptedException {
        URI uri;
        try {
            uri = new URI(cl.get("measure", ""));
        } catch (URISyntaxException e) {
            throw new UsageException("--measure: '" + cl.get("measure", "") + "' is not a URL: " + e.getMessage());
        }
        ServiceRateMeter meter = new ServiceRateMeter(Duration.ofMillis(Math.round(cl.getPositive("step-seconds", 3) * 1e3)),
                cl.getInt("max-concurrency", 32), 0.05, Duration.ofMillis(cl.getLong("timeout-ms", 10_000)));
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
