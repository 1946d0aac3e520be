package io.loadwise.sim.scenario;

import io.loadwise.scenario.CapacityScenario;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Rankings as the sweep ranks (fewest failures, then highest throughput), with differences inside the noise as
 * ties, and the agreement of the simulated ranking with a measured one, pair by pair.
 *
 * <p>Noise: a simulated difference counts when the two 95 % intervals over seeds are disjoint. A measured one
 * counts, when the sweep repeated its cells, when the intervals over its runs are disjoint; when it ran every cell
 * once there is no interval, so failures must differ by more than 2 (the seed's "at most 2 failures count as 0")
 * and throughput by more than 1.96 x sqrt 2 x the baseline's coefficient of variation across HTTP rows (identical
 * nodes, so that spread is the machine's alone).
 */
public final class AgreementReport {

    /** A row's figures as ranked. */
    record Entry(String row, Interval failed, Interval throughput) {
    }

    /** Decides whether two entries differ beyond the noise. */
    interface Noise {
        boolean failuresDiffer(Entry a, Entry b);

        boolean throughputDiffers(Entry a, Entry b);
    }

    static final Noise INTERVALS = new Noise() {
        @Override
        public boolean failuresDiffer(Entry a, Entry b) {
            return a.failed().separatedFrom(b.failed());
        }

        @Override
        public boolean throughputDiffers(Entry a, Entry b) {
            return a.throughput().separatedFrom(b.throughput());
        }
    };

    /** For a sweep that ran each cell once: the seed's failure rule and a throughput band from the baseline's spread. */
    static Noise singleRun(double throughputCv) {
        return new Noise() {
            @Override
            public boolean failuresDiffer(Entry a, Entry b) {
                return Math.abs(a.failed().mean() - b.failed().mean()) > 2;
            }

            @Override
            public boolean throughputDiffers(Entry a, Entry b) {
                double mean = (a.throughput().mean() + b.throughput().mean()) / 2;
                return Math.abs(a.throughput().mean() - b.throughput().mean()) > 1.96 * Math.sqrt(2) * throughputCv * mean;
            }
        };
    }

    /** -1: a ranks ahead of b, 1: b ahead of a, 0: a tie within the noise. */
    static int order(Entry a, Entry b, Noise noise) {
        if (noise.failuresDiffer(a, b)) {
            return a.failed().mean() < b.failed().mean() ? -1 : 1;
        }
        if (noise.throughputDiffers(a, b)) {
            return a.throughput().mean() > b.throughput().mean() ? -1 : 1;
        }
        return 0;
    }

    /**
     * Rows in order of mean failures then mean throughput, each with its rank: 1 + the number of rows that beat it
     * beyond the noise. Rows that no one separates share a rank, and ties do not chain (a row tied with the one
     * above may still rank below a row further up).
     */
    static Map<String, Integer> ranks(List<Entry> entries, Noise noise) {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparingDouble((Entry e) -> e.failed().mean())
                .thenComparing(Comparator.comparingDouble((Entry e) -> e.throughput().mean()).reversed()));
        Map<String, Integer> ranks = new LinkedHashMap<>();
        for (Entry e : sorted) {
            int ahead = 0;
            for (Entry other : sorted) {
                if (other != e && order(other, e, noise) < 0) {
                    ahead++;
                }
            }
            ranks.put(e.row(), ahead + 1);
        }
        return ranks;
    }

    /** Pair counts of one scenario. */
    record Pairs(int agree, int disagree, int simOnly, int benchOnly, int bothTie, List<String> disagreements) {
        int total() {
            return agree + disagree + simOnly + benchOnly + bothTie;
        }
    }

    static Pairs pairs(List<String> rows, Map<String, Entry> sim, Noise simNoise, Map<String, Entry> bench, Noise benchNoise) {
        int agree = 0;
        int disagree = 0;
        int simOnly = 0;
        int benchOnly = 0;
        int ties = 0;
        List<String> disagreements = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            for (int j = i + 1; j < rows.size(); j++) {
                String a = rows.get(i);
                String b = rows.get(j);
                int s = order(sim.get(a), sim.get(b), simNoise);
                int m = order(bench.get(a), bench.get(b), benchNoise);
                if (s != 0 && s == m) {
                    agree++;
                } else if (s != 0 && m != 0) {
                    disagree++;
                    String ahead = s < 0 ? a : b;
                    String behind = s < 0 ? b : a;
                    disagreements.add(String.format(Locale.ROOT, "simulated %s ahead of %s (%s), measured behind (%s)",
                            ahead, behind, why(sim.get(ahead), sim.get(behind), simNoise),
                            why(bench.get(ahead), bench.get(behind), benchNoise)));
                } else if (s != 0) {
                    simOnly++;
                } else if (m != 0) {
                    benchOnly++;
                } else {
                    ties++;
                }
            }
        }
        return new Pairs(agree, disagree, simOnly, benchOnly, ties, disagreements);
    }

    private static String why(Entry a, Entry b, Noise noise) {
        if (noise.failuresDiffer(a, b)) {
            return String.format(Locale.ROOT, "failed %.1f vs %.1f", a.failed().mean(), b.failed().mean());
        }
        return String.format(Locale.ROOT, "%.0f vs %.0f samples/s", a.throughput().mean(), b.throughput().mean());
    }

    private AgreementReport() {
    }

    /** Markdown: per scenario the simulated cells, ranked, next to the measured ones when a sweep is given. */
    public static String markdown(SimulatedSweep sim, MeasuredSweep bench) {
        StringBuilder md = new StringBuilder();
        Noise benchNoise = bench == null ? null
                : bench.maxRuns() > 1 ? INTERVALS : singleRun(bench.baselineThroughputCv());
        if (bench != null) {
            md.append(String.format(Locale.ROOT, "Measured: `%s`, %s; %s%n%n", bench.folder(),
                    bench.maxRuns() > 1 ? "up to " + bench.maxRuns() + " runs per cell (95 % intervals over runs)"
                            : "one run per cell: a measured difference counts when failures differ by more than 2 or"
                            + String.format(Locale.ROOT, " throughput by more than 1.96 × √2 × %.1f %% (the baseline's"
                            + " coefficient of variation across HTTP rows)", 100 * bench.baselineThroughputCv()),
                    bench.erroredRuns() == 0 ? "no run ended in an error." : bench.erroredRuns() + " runs ended in an error and are left out."));
        }
        List<Pairs> summary = new ArrayList<>();
        for (CapacityScenario scenario : sim.scenarios()) {
            Map<String, SimulatedSweep.Cell> cells = sim.scenario(scenario);
            Map<String, Entry> simEntries = new LinkedHashMap<>();
            cells.forEach((k, c) -> simEntries.put(k, new Entry(k, c.failed(), c.throughput())));
            Map<String, Integer> simRanks = ranks(List.copyOf(simEntries.values()), INTERVALS);
            Map<String, Entry> benchEntries = new LinkedHashMap<>();
            if (bench != null) {
                bench.scenario(scenario.key()).forEach((k, runs) -> benchEntries.put(k, new Entry(k,
                        Interval.of(runs.stream().map(r -> (double) r.failed()).toList()),
                        Interval.of(runs.stream().map(MeasuredSweep.Run::throughput).toList()))));
            }
            Map<String, Integer> benchRanks = ranks(List.copyOf(benchEntries.values()), benchNoise == null ? INTERVALS : benchNoise);
            TestbedSettings s = sim.settings(scenario);
            List<NodeResources> nodes = s.fullNode().nodesIn(scenario, s.vcn3Queue());
            md.append("## ").append(scenario.title()).append("\n\n");
            md.append("VCN1/VCN2 ").append(nodes.get(0)).append("; VCN3 ").append(nodes.get(2)).append(". ")
                    .append(cells.values().iterator().next().runs().size()).append(" seeds.\n\n");
            md.append("| Row | Weights | Sim failed | Sim failed % | Sim samples/s | Sim failures: refused / heap / JDBC / no node | Sim VCN3 sel % | Sim VCN3 peak heap / threads / JDBC % | Sim rank |");
            if (bench != null) {
                md.append(" Bench failed | Bench samples/s | Bench rank |");
            }
            md.append("\n|---|---|---:|---:|---:|---|---:|---|---:|");
            if (bench != null) {
                md.append("---:|---:|---:|");
            }
            md.append('\n');
            List<String> order = new ArrayList<>(simRanks.keySet());
            for (String key : order) {
                SimulatedSweep.Cell c = cells.get(key);
                md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %.1f / %.1f / %.1f / %.1f | %.1f | %s | %d |",
                        key, c.row().weightRatio(), c.failed().format("%.1f"), c.failedPercent().format("%.2f"),
                        c.throughput().format("%.1f"), c.mean(r -> (double) r.refused()), c.mean(r -> (double) r.outOfMemory()),
                        c.mean(r -> (double) r.jdbcTimeouts()), c.mean(r -> (double) r.noNode()),
                        c.mean(r -> 100 * r.selectionShare(2)),
                        c.row().http() ? String.format(Locale.ROOT, "%.0f / %.0f / %.0f", c.mean(r -> r.peakHeapPercent()[2]),
                                c.mean(r -> r.peakThreadsPercent()[2]), c.mean(r -> r.peakJdbcPercent()[2])) : "n/a",
                        simRanks.get(key)));
                if (bench != null) {
                    Entry b = benchEntries.get(key);
                    md.append(b == null ? " not run | | |" : String.format(Locale.ROOT, " %s | %s | %d |",
                            b.failed().format("%.1f"), b.throughput().format("%.1f"), benchRanks.get(key)));
                }
                md.append('\n');
            }
            if (bench != null) {
                List<String> common = order.stream().filter(benchEntries::containsKey).toList();
                Pairs p = pairs(common, simEntries, INTERVALS, benchEntries, benchNoise);
                summary.add(p);
                List<String> notMeasured = order.stream().filter(k -> !benchEntries.containsKey(k)).toList();
                md.append(String.format(Locale.ROOT, "%nPairs of the %d rows both ran (%d): %d ordered alike, %d ordered"
                                + " oppositely, %d ordered by the simulator only (a tie in the bench), %d by the bench only"
                                + " (a tie in the simulator), %d tied in both.%s%n",
                        common.size(), p.total(), p.agree(), p.disagree(), p.simOnly(), p.benchOnly(), p.bothTie(),
                        notMeasured.isEmpty() ? "" : " Not in the measured sweep (predictions only): "
                                + String.join(", ", notMeasured) + "."));
                for (String d : p.disagreements()) {
                    md.append("- ").append(d).append('\n');
                }
            }
            md.append('\n');
        }
        if (bench != null) {
            md.append("## Summary\n\n| Scenario | Pairs | Alike | Opposite | Sim only | Bench only | Tied in both |\n|---|---:|---:|---:|---:|---:|---:|\n");
            for (int i = 0; i < summary.size(); i++) {
                Pairs p = summary.get(i);
                md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %d |%n", sim.scenarios().get(i).key(),
                        p.total(), p.agree(), p.disagree(), p.simOnly(), p.benchOnly(), p.bothTie()));
            }
        }
        return md.toString();
    }
}
