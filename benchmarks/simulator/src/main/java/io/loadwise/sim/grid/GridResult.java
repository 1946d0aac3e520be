package io.loadwise.sim.grid;

import io.loadwise.sim.dispatch.OracleLeastWorkLeft;

import io.loadwise.capacity.chart.HeatMapChart;
import io.loadwise.sim.grid.RobustnessGrid.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The grid's outcomes and the aim of issue 31, cell by cell: an agent-driven policy's mean response
 * time within {@link #MEAN_TOLERANCE} of the best agent-blind policy's, its p99 within
 * {@link #P99_TOLERANCE} of that policy's, and, where the speeds differ and the readings carry
 * information (noise at most {@link #INFORMATIVE_NOISE}), a mean below the best blind one's beyond the
 * seeds' noise (the 95 % interval of the seed-by-seed difference below 0: runs of one seed share their
 * arrivals and demands).
 */
public final class GridResult {

    static final double MEAN_TOLERANCE = 1.03;
    static final double P99_TOLERANCE = 1.10;
    static final double INFORMATIVE_NOISE = 0.10;

    private final GridAxes axes;
    private final List<String> policies;
    private final Map<GridCell, Map<String, Outcome>> outcomes;

    GridResult(GridAxes axes, List<String> policies, Map<GridCell, Map<String, Outcome>> outcomes) {
        this.axes = axes;
        this.policies = List.copyOf(policies);
        this.outcomes = outcomes;
    }

    public Map<GridCell, Map<String, Outcome>> outcomes() {
        return outcomes;
    }

    /** The agent-blind policy with the lowest mean response time in {@code cell}. */
    public Outcome bestBlind(GridCell cell) {
        Outcome best = null;
        for (String id : RobustnessGrid.AGENT_BLIND) {
            Outcome o = outcomes.get(cell).get(id);
            if (o != null && (best == null || o.meanMillis().mean() < best.meanMillis().mean())) {
                best = o;
            }
        }
        return best;
    }

    /** How {@code policy} fares against the aim in one cell. */
    public record Verdict(double meanRatio, double p99Ratio, boolean withinMean, boolean withinP99,
            boolean mustBeat, boolean beats) {

        /** Whether the cell meets the aim: within both tolerances, and ahead where it must be. */
        public boolean met() {
            return withinMean && withinP99 && (!mustBeat || beats);
        }
    }

    public Verdict verdict(GridCell cell, String policy) {
        Outcome own = outcomes.get(cell).get(policy);
        Outcome best = bestBlind(cell);
        double meanRatio = own.meanMillis().mean() / best.meanMillis().mean();
        double p99Ratio = own.p99Millis().mean() / best.p99Millis().mean();
        boolean unequal = !cell.speeds().equals(GridAxes.EQUAL);
        boolean mustBeat = unequal && cell.noise() <= INFORMATIVE_NOISE;
        boolean beats = own.pairedDifference(best).high() < 0;
        return new Verdict(meanRatio, p99Ratio, meanRatio <= MEAN_TOLERANCE, p99Ratio <= P99_TOLERANCE, mustBeat, beats);
    }

    /**
     * Whether the oracle (least work left, knowing every request's demand and every node's queue) beats the best
     * agent-blind policy in {@code cell} beyond the seeds' noise. Where it does not, no policy can be shown to:
     * the aim's "ahead where the speeds differ" then asks for what perfect information does not give.
     */
    public boolean oracleBeats(GridCell cell) {
        Outcome oracle = outcomes.get(cell).get(OracleLeastWorkLeft.NAME);
        return oracle != null && oracle.pairedDifference(bestBlind(cell)).high() < 0;
    }

    /**
     * Cells in which {@code policy} misses the aim only by not being ahead beyond the noise (within both
     * tolerances) where the oracle is not ahead beyond the noise either ({@link #oracleBeats}).
     */
    public int cellsMissedWhereOracleDoesNotBeat(String policy) {
        int missed = 0;
        for (GridCell cell : outcomes.keySet()) {
            if (!outcomes.get(cell).containsKey(policy)) {
                continue;
            }
            Verdict v = verdict(cell, policy);
            missed += !v.met() && v.withinMean() && v.withinP99() && !oracleBeats(cell) ? 1 : 0;
        }
        return missed;
    }

    /** Cells in which {@code policy} meets the aim, of all cells. */
    public int cellsMet(String policy) {
        int met = 0;
        for (GridCell cell : outcomes.keySet()) {
            met += outcomes.get(cell).containsKey(policy) && verdict(cell, policy).met() ? 1 : 0;
        }
        return met;
    }

    /**
     * Cells in which {@code policy} misses the mean or p99 tolerance even at the favourable end of its
     * 95 % interval (the low end of its own, against the best agent-blind policy's mean): misses that
     * more seeds would not take away.
     */
    public int cellsMissedBeyondNoise(String policy) {
        int missed = 0;
        for (GridCell cell : outcomes.keySet()) {
            Outcome own = outcomes.get(cell).get(policy);
            if (own == null) {
                continue;
            }
            Outcome best = bestBlind(cell);
            boolean mean = own.meanMillis().low() > MEAN_TOLERANCE * best.meanMillis().mean();
            boolean p99 = own.p99Millis().low() > P99_TOLERANCE * best.p99Millis().mean();
            missed += mean || p99 ? 1 : 0;
        }
        return missed;
    }

    /** One line per cell and policy, every figure. */
    public void writeCsv(Path file) throws IOException {
        StringBuilder csv = new StringBuilder("speeds,service,rho,noise,delay_ms,policy,mean_ms,mean_ci95_ms,"
                + "p99_ms,p99_ci95_ms,rejected\n");
        for (Map.Entry<GridCell, Map<String, Outcome>> e : outcomes.entrySet()) {
            GridCell c = e.getKey();
            for (Outcome o : e.getValue().values()) {
                csv.append(String.format(Locale.ROOT, "%s,\"%s\",%.2f,%.2f,%d,%s,%.3f,%.3f,%.3f,%.3f,%d%n",
                        c.speeds().label(), c.service(), c.rho(), c.noise(), c.delayMillis(), o.policy(),
                        o.meanMillis().mean(), o.meanMillis().halfWidth(), o.p99Millis().mean(),
                        o.p99Millis().halfWidth(), o.rejected()));
            }
        }
        write(file, csv.toString());
    }

    /**
     * The aim table: per cell, the best agent-blind policy and each agent-driven policy's ratios to it
     * (mean, p99), with a mark where the cell misses the aim.
     */
    public String markdown() {
        StringBuilder md = new StringBuilder();
        List<String> driven = new ArrayList<>();
        for (String id : RobustnessGrid.AGENT_DRIVEN) {
            if (policies.contains(id)) {
                driven.add(id);
            }
        }
        md.append(String.format(Locale.ROOT, "%d cells × %d seeds × %d requests; policies: %s.%n%n",
                outcomes.size(), axes.seeds(), axes.requests(), String.join(", ", policies)));
        for (String id : driven) {
            md.append(String.format(Locale.ROOT, "- %s meets the aim in %d of %d cells; misses a tolerance beyond the"
                    + " seeds' noise (the low end of its 95 %% interval above it) in %d%n", id, cellsMet(id),
                    outcomes.size(), cellsMissedBeyondNoise(id)));
            md.append(String.format(Locale.ROOT, "  - of its misses, %d are only the \"ahead beyond the noise\" clause in"
                    + " cells where the oracle is not ahead beyond the noise either%n", cellsMissedWhereOracleDoesNotBeat(id)));
        }
        md.append("\nRatios are mean / p99 response time over the best agent-blind policy's (by mean);"
                + " ✗ misses the aim (mean ≤ 1.03, p99 ≤ 1.10, and, with unequal speeds and noise ≤ 10 %, a mean"
                + " below it beyond the noise: the 95 % interval of the seed-by-seed difference below 0). The oracle column is"
                + " the least-work-left oracle's mean over the best blind one's, † where it is not ahead beyond the noise"
                + " (no policy can be shown ahead there).\n\n");
        md.append("| speeds | service | ρ | noise | delay s | best blind | mean ms | p99 ms | oracle |");
        for (String id : driven) {
            md.append(' ').append(id).append(" |");
        }
        md.append('\n').append("|---|---|---:|---:|---:|---|---:|---:|---:|");
        md.append("---|".repeat(driven.size())).append('\n');
        for (GridCell c : outcomes.keySet()) {
            Outcome best = bestBlind(c);
            md.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %.0f %% | %.1f | %s | %s | %s |",
                    c.speeds().label(), c.service().startsWith("bounded") ? "heavy tail" : c.service(), c.rho(),
                    100 * c.noise(), c.delayMillis() / 1000.0, best.policy(), best.meanMillis().format("%.1f"),
                    best.p99Millis().format("%.0f")));
            Outcome oracle = outcomes.get(c).get(OracleLeastWorkLeft.NAME);
            md.append(oracle == null ? " |" : String.format(Locale.ROOT, " %.3f%s |",
                    oracle.meanMillis().mean() / best.meanMillis().mean(), oracleBeats(c) ? "" : " †"));
            for (String id : driven) {
                Verdict v = verdict(c, id);
                md.append(String.format(Locale.ROOT, " %.3f / %.2f%s |", v.meanRatio(), v.p99Ratio(),
                        v.met() ? "" : " ✗"));
            }
            md.append('\n');
        }
        return md.toString();
    }

    /** The heat map of {@code policy}'s mean response time over the best agent-blind policy's. */
    public void writeHeatMap(Path file, String policy) throws IOException {
        Map<String, Integer> rows = new LinkedHashMap<>();
        Map<String, Integer> columns = new LinkedHashMap<>();
        for (GridCell c : outcomes.keySet()) {
            rows.putIfAbsent(c.rowLabel(), rows.size());
            columns.putIfAbsent(c.columnLabel(), columns.size());
        }
        double[][] values = new double[rows.size()][columns.size()];
        for (double[] row : values) {
            java.util.Arrays.fill(row, Double.NaN);
        }
        for (GridCell c : outcomes.keySet()) {
            if (outcomes.get(c).containsKey(policy)) {
                values[rows.get(c.rowLabel())][columns.get(c.columnLabel())] = verdict(c, policy).meanRatio();
            }
        }
        new HeatMapChart(policy + ": mean response time / best agent-blind policy's",
                String.format(Locale.ROOT, "columns: agent noise and delay; rows: speeds, service, load;"
                        + " %d seeds per cell; green below 1, red above", axes.seeds()),
                List.copyOf(rows.keySet()), List.copyOf(columns.keySet()), values, 0.10).writePng(file);
    }

    private static void write(Path file, String text) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, text);
    }
}
