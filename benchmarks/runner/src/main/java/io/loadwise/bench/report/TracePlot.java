package io.loadwise.bench.report;

import io.loadwise.capacity.chart.TraceChart;
import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Draws a cell's per-second trace, the CSV the sweep wrote, as a {@link TraceChart}: each node's
 * selections per second and the dispatcher's failed requests per second (dashed); below, when the trace
 * has agent figures, the last node's (VCN3's) heap, busy-worker and JDBC use in percent, which shows
 * whether and when it ran out (the seed's load traces, figures 51, 53, 57, 60, 63).
 */
final class TracePlot {

    static final Color[] NODE_COLORS = {new Color(40, 110, 200), new Color(40, 160, 80), new Color(230, 140, 20)};
    static final Color[] LOAD_COLORS = {new Color(140, 60, 170), new Color(0, 150, 160), new Color(120, 80, 40)};
    private static final int PANEL_HEIGHT = 240;
    private static final int LOAD_PANEL_HEIGHT = 160;
    /** The CSV's cluster columns before the per-node selections: epochMillis, throughput, failed, activeConnections. */
    private static final int CLUSTER_COLUMNS = 4;
    private static final int FAILED_COLUMN = 2;

    private TracePlot() {
    }

    static void write(Path csv, Path png, String title) throws IOException {
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        if (lines.size() < 3) {
            return;
        }
        String[] header = lines.get(0).split(",");
        List<double[]> rows = new ArrayList<>();
        for (String line : lines.subList(2, lines.size())) { // the first point holds the totals before the run
            rows.add(Arrays.stream(line.split(",", -1))
                    .mapToDouble(v -> v.isEmpty() ? Double.NaN : Double.parseDouble(v)).toArray());
        }
        // selections per node come first after the cluster columns; agent columns ("VCN1 heap%") follow
        int nodes = (int) Arrays.stream(header).skip(CLUSTER_COLUMNS).takeWhile(h -> !h.contains(" ")).count();
        List<TraceChart.Line> selections = new ArrayList<>();
        for (int s = 0; s < nodes; s++) {
            selections.add(new TraceChart.Line(column(rows, CLUSTER_COLUMNS + s), NODE_COLORS[s % NODE_COLORS.length],
                    false, header[CLUSTER_COLUMNS + s] + " sels/s"));
        }
        selections.add(new TraceChart.Line(column(rows, FAILED_COLUMN), Color.RED, true, "LB failed/s"));
        List<TraceChart.Line> load = new ArrayList<>();
        if (nodes > 0) {
            String last = header[CLUSTER_COLUMNS + nodes - 1];
            String[] kinds = {"heap%", "threads%", "jdbc%"};
            for (int k = 0; k < kinds.length; k++) {
                int column = Arrays.asList(header).indexOf(last + " " + kinds[k]);
                if (column >= 0 && hasData(rows, column)) {
                    load.add(new TraceChart.Line(column(rows, column), LOAD_COLORS[k], false, last + " " + kinds[k]));
                }
            }
        }
        double max = 1;
        for (TraceChart.Line line : selections) {
            for (double v : line.perSecond()) {
                max = Double.isNaN(v) ? max : Math.max(max, v);
            }
        }
        TraceChart chart = new TraceChart(title).panel(PANEL_HEIGHT, max, String.format(Locale.ROOT, "%.0f/s", max),
                selections);
        if (!load.isEmpty()) {
            chart.panel(LOAD_PANEL_HEIGHT, 100, "100 %", load);
        }
        chart.writePng(png);
    }

    private static double[] column(List<double[]> rows, int column) {
        double[] values = new double[rows.size()];
        for (int i = 0; i < values.length; i++) {
            double[] row = rows.get(i);
            values[i] = column < row.length ? row[column] : Double.NaN;
        }
        return values;
    }

    private static boolean hasData(List<double[]> rows, int column) {
        return rows.stream().anyMatch(r -> column < r.length && !Double.isNaN(r[column]));
    }
}
