package io.loadwise.sim.link;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints a response-scheduling sweep the way seed 002 reports it: mean response time per discipline and
 * per WAN at each load, the improvement of one discipline over another, (RT_base − RT)/RT_base, averaged
 * and maximised over the loads (its Tables 3-7), and the starvation stretch against PS (§4.3).
 */
public final class SchedulingReport {

    private final List<WanProfile> wans;
    private final int warmup;
    private final Map<Double, List<LinkRunResult>> byLoad = new LinkedHashMap<>();
    private final Map<Double, Double> rates = new LinkedHashMap<>();

    public SchedulingReport(List<WanProfile> wans, int warmup) {
        this.wans = wans;
        this.warmup = warmup;
    }

    public void add(double load, double ratePerSecond, LinkRunResult run) {
        byLoad.computeIfAbsent(load, k -> new ArrayList<>()).add(run);
        rates.put(load, ratePerSecond);
    }

    /** Improvement of {@code better} over {@code base} in mean response time at one load, a fraction; NaN if either is missing. */
    public double improvement(double load, ResponseDiscipline better, ResponseDiscipline base, int wan) {
        LinkRunResult b = find(byLoad.get(load), base);
        LinkRunResult x = find(byLoad.get(load), better);
        if (b == null || x == null) {
            return Double.NaN;
        }
        double rtBase = b.meanResponseMillis(warmup, wan);
        return (rtBase - x.meanResponseMillis(warmup, wan)) / rtBase;
    }

    public void print(PrintStream out) {
        for (Map.Entry<Double, List<LinkRunResult>> e : byLoad.entrySet()) {
            List<LinkRunResult> runs = e.getValue();
            int measured = runs.get(0).responseSeconds().length - warmup;
            out.printf(Locale.ROOT, "%nLink load ρ = %.2f (λ = %.2f req/s), %d requests measured, mean response time in ms%n",
                    e.getKey(), rates.get(e.getKey()), measured);
            StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-6s %9s", "policy", "all"));
            for (WanProfile w : wans) {
                head.append(String.format(Locale.ROOT, " %9s", w.name()));
            }
            head.append(String.format(Locale.ROOT, " %11s %8s %8s %9s %8s", "Mbit/s out", "vs PS", "vs SRPT", "S>1 vs PS", "max S"));
            out.println(head);
            LinkRunResult ps = find(runs, ResponseDiscipline.PS);
            for (LinkRunResult r : runs) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-6s %9.1f", r.discipline().id(),
                        r.meanResponseMillis(warmup, -1)));
                for (int w = 0; w < wans.size(); w++) {
                    row.append(String.format(Locale.ROOT, " %9.1f", r.meanResponseMillis(warmup, w)));
                }
                double[] stretch = ps == null || r == ps ? null : r.stretch(ps, warmup);
                row.append(String.format(Locale.ROOT, " %11.3f %8s %8s %9s %8s", r.throughputBytesPerSecond() * 8 / 1e6,
                        percent(improvement(e.getKey(), r.discipline(), ResponseDiscipline.PS, -1)),
                        percent(improvement(e.getKey(), r.discipline(), ResponseDiscipline.SRPT, -1)),
                        stretch == null ? "-" : String.format(Locale.ROOT, "%.2f%%", 100 * stretch[0]),
                        stretch == null ? "-" : String.format(Locale.ROOT, "%.2f", stretch[1])));
                out.println(row);
            }
        }
        printSummary(out);
        out.println();
        out.println("vs X = (RT_X − RT)/RT_X, the improvement in mean response time; S = RT/RT_PS per request, seed 002's "
                + "starvation stretch (S > 1: the request finished later than under PS).");
    }

    private void printSummary(PrintStream out) {
        ResponseDiscipline[][] pairs = {
            {ResponseDiscipline.SRRT, ResponseDiscipline.SRPT},
            {ResponseDiscipline.SRRT, ResponseDiscipline.PS},
            {ResponseDiscipline.SRPT, ResponseDiscipline.PS}};
        out.printf(Locale.ROOT, "%nImprovement in mean response time over the loads above (seed 002 Tables 3-7 form)%n");
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-9s %-8s", "pair", ""));
        head.append(String.format(Locale.ROOT, " %8s", "all"));
        for (WanProfile w : wans) {
            head.append(String.format(Locale.ROOT, " %8s", w.name()));
        }
        out.println(head);
        for (ResponseDiscipline[] pair : pairs) {
            if (Double.isNaN(improvement(byLoad.keySet().iterator().next(), pair[0], pair[1], -1))) {
                continue;
            }
            for (boolean max : new boolean[] {false, true}) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-9s %-8s",
                        pair[0].name() + ":" + pair[1].name(), max ? "max" : "average"));
                for (int w = -1; w < wans.size(); w++) {
                    double agg = max ? Double.NEGATIVE_INFINITY : 0;
                    for (double load : byLoad.keySet()) {
                        double v = improvement(load, pair[0], pair[1], w);
                        agg = max ? Math.max(agg, v) : agg + v / byLoad.size();
                    }
                    row.append(String.format(Locale.ROOT, " %8s", percent(agg)));
                }
                out.println(row);
            }
        }
    }

    private static String percent(double fraction) {
        return Double.isNaN(fraction) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
    }

    private static LinkRunResult find(List<LinkRunResult> runs, ResponseDiscipline d) {
        for (LinkRunResult r : runs) {
            if (r.discipline() == d) {
                return r;
            }
        }
        return null;
    }
}
