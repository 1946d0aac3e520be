package io.loadwise.bench.chaos;

import io.loadwise.capacity.chart.Charts;
import io.loadwise.capacity.chart.TraceChart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The soak's results folder: {@code README.md} (settings, a verdict per requirement, a table per minute),
 * {@code soak.csv} (the /proc samples), {@code faults.csv} (each fault) and {@code soak.png} (RSS, descriptors,
 * threads and p99 per minute over time, a {@link TraceChart}).
 */
public final class SoakReport {

    /** Slopes of RSS, descriptors and threads after the warm-up must stay under this, % of the mean per hour. */
    static final double MAX_SLOPE = 1.0;
    /**
     * p99 per minute is stable when the median minute of the second half of the run (after the warm-up) is at
     * most this many times the median minute of the first half: a tail that grows with time, not the minutes a
     * slow node or a kill lifts (those show in the table and the plot).
     */
    static final double MAX_P99_DRIFT = 1.5;

    private SoakReport() {
    }

    /** One row of the per-minute table. */
    record MinuteRow(int minute, long requests, long failed, long inside, long outside, double p99Millis,
            ProcSample last, String faults) {
    }

    static List<MinuteRow> minutes(SoakResult r) {
        long[][] split = KillWindows.perMinute(r.stats().failures(), r.windows(), r.minutes());
        List<MinuteRow> rows = new ArrayList<>();
        for (int m = 0; m < r.minutes(); m++) {
            SoakStats.Minute stats = r.stats().minute(m);
            ProcSample last = null;
            for (ProcSample s : r.samples()) {
                if (s.seconds() < (m + 1) * 60.0 + 1) {
                    last = s;
                }
            }
            List<String> faults = new ArrayList<>();
            for (SoakFault f : r.faults()) {
                if ((int) (f.atSeconds() / 60) == m) {
                    faults.add(f.kind() + (f.ok() ? "" : " FAILED"));
                }
            }
            rows.add(new MinuteRow(m + 1, stats.requests(), stats.failed(), split[m][0], split[m][1], stats.p99Millis(),
                    last, faults.isEmpty() ? "-" : String.join(", ", faults)));
        }
        return rows;
    }

    static double slope(SoakResult r, ToLongFunction<ProcSample> figure) {
        double[] t = r.samples().stream().mapToDouble(ProcSample::seconds).toArray();
        double[] y = r.samples().stream().mapToDouble(s -> figure.applyAsLong(s)).toArray();
        return Slope.percentPerHour(t, y, Slope.warmUpSeconds(r.minutes() * 60.0));
    }

    /** Writes the folder; returns whether every requirement passed. */
    public static boolean write(Path dir, SoakResult r, String command, String started) throws IOException {
        List<MinuteRow> rows = minutes(r);
        double warmUp = Slope.warmUpSeconds(r.minutes() * 60.0);
        long outside = rows.stream().mapToLong(MinuteRow::outside).sum();
        long inside = rows.stream().mapToLong(MinuteRow::inside).sum();
        long requests = rows.stream().mapToLong(MinuteRow::requests).sum();
        double rss = slope(r, ProcSample::rssKb);
        double fds = slope(r, ProcSample::fds);
        double threads = slope(r, ProcSample::threads);
        double[] p99 = rows.stream().filter(m -> (m.minute() - 1) * 60.0 >= warmUp).mapToDouble(MinuteRow::p99Millis)
                .filter(v -> !Double.isNaN(v)).toArray();
        double firstHalf = median(Arrays.copyOfRange(p99, 0, p99.length / 2));
        double secondHalf = median(Arrays.copyOfRange(p99, p99.length / 2, p99.length));
        double worst = Arrays.stream(p99).max().orElse(Double.NaN);
        boolean failuresOk = outside == 0 && r.stats().failuresDropped() == 0;
        boolean rssOk = Math.abs(rss) < MAX_SLOPE;
        boolean fdsOk = Math.abs(fds) < MAX_SLOPE;
        boolean threadsOk = Math.abs(threads) < MAX_SLOPE;
        boolean p99Ok = p99.length >= 2 && secondHalf <= MAX_P99_DRIFT * firstHalf;
        long faultsFailed = r.faults().stream().filter(f -> !f.ok()).count();

        StringBuilder md = new StringBuilder();
        md.append("# Soak, ").append(started).append("\n\n`").append(command).append("` on ")
                .append(Runtime.getRuntime().availableProcessors()).append(" CPUs, Java ")
                .append(System.getProperty("java.version")).append(", load average ").append(r.loadAverage())
                .append("; the nodes, the dispatcher" + (r.etcd() ? ", etcd" : "") + " and the load generator share the machine.\n\n");
        md.append("- **load**: ").append(r.rate()).append(" GET/s open-loop, ").append(r.rateSource()).append("; ")
                .append(requests).append(" requests in ").append(r.minutes()).append(" min\n");
        md.append("- **faults**: one every ").append(r.faultEvery()).append(" s by turns: ")
                .append(String.join(", ", SoakRun.rotation(r.etcd())))
                .append(r.etcd() ? " (etcd store, 3 members)" : "; **etcd member restarts skipped** (no --etcd: file store)")
                .append("; ").append(r.faults().size()).append(" injected, ").append(faultsFailed)
                .append(" did not go as planned (see [faults.csv](faults.csv))\n");
        md.append(String.format(Locale.ROOT, "- **warm-up** left out of the slopes and the p99 verdict: the first %.0f s"
                + " (10 %% of the run, at most 5 min)%n%n", warmUp));
        md.append("| requirement | measured | verdict |\n|---|---|---|\n");
        md.append(row("0 failed requests outside kill windows", outside + " outside, " + inside + " inside "
                + r.windows().size() + " kill windows" + (r.stats().failuresDropped() > 0 ? " (" + r.stats().failuresDropped()
                + " failures beyond the " + SoakStats.MAX_FAILURES_KEPT + " kept, not classified)" : "")
                + causes(r.stats().causes()), failuresOk));
        md.append(row("RSS slope < 1 %/hour", percent(rss), rssOk));
        md.append(row("open file descriptors slope < 1 %/hour", percent(fds), fdsOk));
        md.append(row("threads slope < 1 %/hour", percent(threads), threadsOk));
        md.append(row("p99 per minute stable (median minute of the second half ≤ " + MAX_P99_DRIFT + " × the first's)",
                String.format(Locale.ROOT, "median minute %.1f ms, then %.1f ms; worst minute %.1f ms", firstHalf,
                        secondHalf, worst), p99Ok));
        md.append("\n![RSS, descriptors, threads and p99 per minute](soak.png)\n\n");
        md.append("| minute | requests | failed | in kill window | outside | p99 ms | RSS MB | fds | threads | fault |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (MinuteRow m : rows) {
            md.append(String.format(Locale.ROOT, "| %d | %d | %d | %d | %d | %.1f | %s | %s | %s | %s |%n", m.minute(),
                    m.requests(), m.failed(), m.inside(), m.outside(), m.p99Millis(),
                    m.last() == null ? "?" : String.format(Locale.ROOT, "%.1f", m.last().rssKb() / 1024.0),
                    m.last() == null ? "?" : m.last().fds(), m.last() == null ? "?" : m.last().threads(), m.faults()));
        }
        md.append("\nRaw figures: [soak.csv](soak.csv) (a /proc sample of the dispatcher every ").append(SoakRun.SAMPLE_S)
                .append(" s), [faults.csv](faults.csv). What each figure means: docs/operations.md, \"Soak\".\n");
        Files.writeString(dir.resolve("README.md"), md.toString(), StandardCharsets.UTF_8);

        StringBuilder csv = new StringBuilder("seconds,minute,rss_kb,fds,threads\n");
        for (ProcSample s : r.samples()) {
            csv.append(String.format(Locale.ROOT, "%.1f,%d,%d,%d,%d%n", s.seconds(), (int) (s.seconds() / 60) + 1,
                    s.rssKb(), s.fds(), s.threads()));
        }
        Files.writeString(dir.resolve("soak.csv"), csv.toString(), StandardCharsets.UTF_8);

        StringBuilder fcsv = new StringBuilder("number,kind,at_s,took_s,ok,outcome\n");
        for (SoakFault f : r.faults()) {
            fcsv.append(String.format(Locale.ROOT, "%d,%s,%.1f,%.1f,%s,\"%s\"%n", f.number(), f.kind(), f.atSeconds(),
                    f.tookSeconds(), f.ok(), f.outcome().replace("\"", "\"\"")));
        }
        Files.writeString(dir.resolve("faults.csv"), fcsv.toString(), StandardCharsets.UTF_8);
        plot(r, rows).writePng(dir.resolve("soak.png"));
        return failuresOk && rssOk && fdsOk && threadsOk && p99Ok;
    }

    /**
     * RSS, descriptors and threads per sample and p99 per minute (a step, one value across its minute's samples),
     * each in a panel of its own over one time axis in minutes.
     */
    static TraceChart plot(SoakResult r, List<MinuteRow> rows) {
        List<ProcSample> samples = r.samples();
        double[] rss = samples.stream().mapToDouble(s -> s.rssKb() / 1024.0).toArray();
        double[] fds = samples.stream().mapToDouble(ProcSample::fds).toArray();
        double[] threads = samples.stream().mapToDouble(ProcSample::threads).toArray();
        double[] p99 = new double[samples.size()];
        for (int i = 0; i < p99.length; i++) {
            int minute = (int) (samples.get(i).seconds() / 60) + 1;
            p99[i] = rows.stream().filter(m -> m.minute() == minute).mapToDouble(MinuteRow::p99Millis).findFirst()
                    .orElse(Double.NaN);
        }
        TraceChart chart = new TraceChart("Soak: " + r.rate() + " req/s, a fault every " + r.faultEvery() + " s",
                SoakRun.SAMPLE_S / 60.0, "time (min)");
        panel(chart, "RSS (MB)", rss, 0);
        panel(chart, "open file descriptors", fds, 1);
        panel(chart, "threads", threads, 2);
        panel(chart, "p99 per minute (ms)", p99, 3);
        return chart;
    }

    private static void panel(TraceChart chart, String label, double[] values, int colour) {
        double max = Arrays.stream(values).filter(Double::isFinite).max().orElse(1);
        chart.panel(120, Math.max(1, max * 1.1), label, List.of(
                new TraceChart.Line(values, Charts.PALETTE[colour], false, label)));
    }

    /** The median (the mean of the middle two of an even count); NaN when empty. */
    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static String causes(Map<String, Long> causes) {
        if (causes.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        causes.forEach((k, v) -> parts.add(k + ": " + v));
        return " (" + String.join(", ", parts) + ")";
    }

    private static String percent(double v) {
        return Double.isNaN(v) ? "n/a (too few samples after the warm-up)" : String.format(Locale.ROOT, "%+.2f %%/hour", v);
    }

    private static String row(String requirement, String measured, boolean ok) {
        return "| " + requirement + " | " + measured + " | " + (ok ? "pass" : "**FAIL**") + " |\n";
    }
}
