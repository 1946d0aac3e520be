package io.loadwise.sim.report;

import io.loadwise.capacity.chart.BarChart;
import io.loadwise.capacity.chart.LineChart;
import io.loadwise.sim.dispatch.OracleLeastWorkLeft;
import io.loadwise.sim.stats.RunResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Results of a rate sweep: for each offered rate, one run per policy plus the oracle baseline. Prints
 * the tables, writes a CSV and the PNG plots. Every policy's mean waiting and response time is also
 * given as a ratio to the oracle's (seed 004's normalised times).
 */
public final class RateSweepReport {

    private final Map<Double, List<RunResult>> byRate = new LinkedHashMap<>();

    /** Adds a run; {@code rateKey} is the requested rate (the run's offered rate may differ slightly). */
    public void add(double rateKey, RunResult result) {
        byRate.computeIfAbsent(rateKey, k -> new ArrayList<>()).add(result);
    }

    public Map<Double, List<RunResult>> results() {
        return byRate;
    }

    /** The oracle's run at that rate, or {@code null}. */
    public static RunResult oracle(List<RunResult> runs) {
        for (RunResult r : runs) {
            if (r.policy().equals(OracleLeastWorkLeft.NAME)) {
                return r;
            }
        }
        return null;
    }

    public static double ratio(double value, double baseline) {
        return baseline > 0 ? value / baseline : Double.NaN;
    }

    public void printTables(PrintStream out) {
        for (Map.Entry<Double, List<RunResult>> e : byRate.entrySet()) {
            List<RunResult> runs = e.getValue();
            RunResult oracle = oracle(runs);
            out.printf(Locale.ROOT, "%nLoad %.2f req/s (the trace's mean rate %.2f req/s), %d requests measured, times in ms%n",
                    e.getKey(), runs.get(0).offeredRate(), runs.get(0).requests());
            out.printf(Locale.ROOT, "%-26s %15s %7s %9s %9s %9s %9s %9s %9s %9s  %-15s %8s %8s%n", "policy", "rejected",
                    "P(wait)", "W mean", "W p95", "W p99", "R mean", "R p50", "R p95", "R p99", "util mean±sd", "W/W*", "R/R*");
            for (RunResult r : runs) {
                out.printf(Locale.ROOT, "%-26s %15s %7s %9s %9s %9s %9s %9s %9s %9s  %-15s %8s %8s%n", r.policy(),
                        rejected(r), Double.isNaN(r.probabilityOfWaiting()) ? "n/a"
                                : String.format(Locale.ROOT, "%.3f", r.probabilityOfWaiting()),
                        fmt(r.meanWait()), fmt(r.p95Wait()), fmt(r.p99Wait()), fmt(r.meanResponse()),
                        fmt(r.p50Response()), fmt(r.p95Response()), fmt(r.p99Response()),
                        String.format(Locale.ROOT, "%.3f±%.3f", r.utilisationMean(), r.utilisationSpread()),
                        oracle == null ? "-" : fmt(ratio(r.meanWait(), oracle.meanWait())),
                        oracle == null ? "-" : fmt(ratio(r.meanResponse(), oracle.meanResponse())));
            }
        }
        for (List<RunResult> runs : byRate.values()) {
            for (RunResult r : runs) {
                if (r.rejected() > 0) {
                    out.printf(Locale.ROOT, "%n%s at %.2f req/s returned no node for %d requests (%.3f %%): the dispatcher "
                            + "would answer 503; they are not in the times above.%n", r.policy(), r.offeredRate(),
                            r.rejected(), 100.0 * r.rejected() / (r.rejected() + r.requests()));
                }
            }
        }
        out.println();
        out.println("rejected = requests the policy found no node for (the dispatcher's 503), not in the times; "
                + "P(wait) = share of served requests that queued;");
        out.println("W = waiting (queued) time, R = response time (waiting + service); util ± = standard deviation "
                + "of per-node utilisation; W*, R* = oracle least-work-left baseline.");
    }

    /** "0", or the count and its share of arrivals: a policy that rejects can look fast on the served requests. */
    private static String rejected(RunResult r) {
        return r.rejected() == 0 ? "0" : String.format(Locale.ROOT, "%d (%.2f%%)", r.rejected(), 100 * r.rejectedFraction());
    }

    public void writeCsv(Path file) throws IOException {
        StringBuilder sb = new StringBuilder("rate,offered_rate,policy,requests,rejected,wait_mean_ms,wait_p50_ms,wait_p95_ms,"
                + "wait_p99_ms,resp_mean_ms,resp_p50_ms,resp_p95_ms,resp_p99_ms,util_mean,util_sd,wait_ratio_oracle,"
                + "resp_ratio_oracle,util_per_node,p_wait\n");
        for (Map.Entry<Double, List<RunResult>> e : byRate.entrySet()) {
            RunResult oracle = oracle(e.getValue());
            for (RunResult r : e.getValue()) {
                StringBuilder nodes = new StringBuilder();
                for (double u : r.utilisation()) {
                    nodes.append(nodes.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.4f", u));
                }
                sb.append(String.format(Locale.ROOT, "%s,%.4f,%s,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.5f,%.5f,%.6g,%.6g,%s,%.5f%n",
                        e.getKey(), r.offeredRate(), r.policy(), r.requests(), r.rejected(), r.meanWait(), r.p50Wait(), r.p95Wait(),
                        r.p99Wait(), r.meanResponse(), r.p50Response(), r.p95Response(), r.p99Response(),
                        r.utilisationMean(), r.utilisationSpread(),
                        oracle == null ? Double.NaN : ratio(r.meanWait(), oracle.meanWait()),
                        oracle == null ? Double.NaN : ratio(r.meanResponse(), oracle.meanResponse()), nodes,
                        r.probabilityOfWaiting()));
            }
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, sb.toString());
    }

    /** Writes response-time.png, waiting-time.png, normalised-waiting.png and utilisation.png into {@code dir}. */
    public List<Path> writePlots(Path dir, String subtitle) throws IOException {
        List<String> policies = new ArrayList<>();
        for (List<RunResult> runs : byRate.values()) {
            for (RunResult r : runs) {
                if (!policies.contains(r.policy())) {
                    policies.add(r.policy());
                }
            }
        }
        double[] rates = byRate.keySet().stream().mapToDouble(Double::doubleValue).toArray();
        LineChart response = new LineChart("Mean response time" + subtitle, "offered load (req/s)", "ms (log scale)", true);
        LineChart waiting = new LineChart("Mean waiting time" + subtitle, "offered load (req/s)", "ms (log scale)", true);
        LineChart normalised = new LineChart("Waiting time / oracle least-work-left" + subtitle, "offered load (req/s)",
                "ratio (log scale)", true);
        for (String policy : policies) {
            double[] r = new double[rates.length];
            double[] w = new double[rates.length];
            double[] n = new double[rates.length];
            int i = 0;
            for (List<RunResult> runs : byRate.values()) {
                RunResult run = find(runs, policy);
                RunResult oracle = oracle(runs);
                r[i] = run == null ? Double.NaN : run.meanResponse();
                w[i] = run == null ? Double.NaN : run.meanWait();
                n[i] = run == null || oracle == null ? Double.NaN : ratio(run.meanWait(), oracle.meanWait());
                i++;
            }
            response.add(policy, rates, r);
            waiting.add(policy, rates, w);
            if (!policy.equals(OracleLeastWorkLeft.NAME)) {
                normalised.add(policy, rates, n);
            }
        }
        List<RunResult> last = new ArrayList<>(byRate.values()).get(byRate.size() - 1);
        BarChart utilisation = new BarChart(String.format(Locale.ROOT, "Per-node utilisation at %.1f req/s%s",
                last.get(0).offeredRate(), subtitle), "policy", "utilisation", "node");
        for (RunResult r : last) {
            utilisation.add(r.policy(), r.utilisation());
        }
        List<Path> written = List.of(dir.resolve("response-time.png"), dir.resolve("waiting-time.png"),
                dir.resolve("normalised-waiting.png"), dir.resolve("utilisation.png"));
        response.writePng(written.get(0));
        waiting.writePng(written.get(1));
        normalised.writePng(written.get(2));
        utilisation.writePng(written.get(3));
        return written;
    }

    private static RunResult find(List<RunResult> runs, String policy) {
        for (RunResult r : runs) {
            if (r.policy().equals(policy)) {
                return r;
            }
        }
        return null;
    }

    static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (v == 0) {
            return "0";
        }
        double a = Math.abs(v);
        return String.format(Locale.ROOT, a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 1 ? "%.3f" : "%.4f", v);
    }
}
