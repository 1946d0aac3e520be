package io.loadwise.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A cell's per-second trace as lines: each node's selections per second and the dispatcher's failed
 * requests per second (dashed), like the seed's selection and failure traces (figures 49-63); below,
 * when the trace has agent figures, the last node's (VCN3's) heap, busy-worker and JDBC use in percent,
 * which shows whether and when it ran out (the seed's load traces, figures 51, 53, 57, 60, 63). Reads the
 * trace CSV the sweep wrote.
 */
final class TraceChart {

    static final Color[] NODE_COLORS = {new Color(40, 110, 200), new Color(40, 160, 80), new Color(230, 140, 20)};
    static final Color[] LOAD_COLORS = {new Color(140, 60, 170), new Color(0, 150, 160), new Color(120, 80, 40)};
    static final int WIDTH = 760;
    private static final int PANEL_HEIGHT = 240;
    private static final int LOAD_PANEL_HEIGHT = 160;
    private static final int LEFT = 60;
    private static final int RIGHT = 150;
    private static final int TOP = 40;
    private static final int GAP = 40;

    /** One plotted series: a CSV column, its colour, dashed or not, and its legend. */
    private record Line(int column, Color color, boolean dashed, String label) {
    }

    private TraceChart() {
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
        // selections per node come first after the four cluster columns; agent columns ("VCN1 heap%") follow
        int series = (int) Arrays.stream(header).skip(4).takeWhile(h -> !h.contains(" ")).count();
        List<Line> selections = new ArrayList<>();
        for (int s = 0; s < series; s++) {
            selections.add(new Line(4 + s, NODE_COLORS[s % NODE_COLORS.length], false, header[4 + s] + " sels/s"));
        }
        selections.add(new Line(2, Color.RED, true, "LB failed/s"));
        List<Line> load = new ArrayList<>();
        if (series > 0) {
            String last = header[4 + series - 1];
            String[] kinds = {"heap%", "threads%", "jdbc%"};
            for (int k = 0; k < kinds.length; k++) {
                int column = Arrays.asList(header).indexOf(last + " " + kinds[k]);
                if (column >= 0 && hasData(rows, column)) {
                    load.add(new Line(column, LOAD_COLORS[k], false, last + " " + kinds[k]));
                }
            }
        }
        double max = 1;
        for (double[] r : rows) {
            for (Line line : selections) {
                max = Double.isNaN(r[line.column()]) ? max : Math.max(max, r[line.column()]);
            }
        }
        int height = TOP + PANEL_HEIGHT + GAP + (load.isEmpty() ? 0 : LOAD_PANEL_HEIGHT + GAP);
        BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, height);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
            g.drawString(title, 10, 20);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            panel(g, TOP, PANEL_HEIGHT, rows, selections, max, String.format(Locale.ROOT, "%.0f/s", max));
            if (!load.isEmpty()) {
                panel(g, TOP + PANEL_HEIGHT + GAP, LOAD_PANEL_HEIGHT, rows, load, 100, "100 %");
            }
        } finally {
            g.dispose();
        }
        Files.createDirectories(png.getParent());
        ImageIO.write(image, "png", png.toFile());
    }

    private static void panel(Graphics2D g, int top, int plotH, List<double[]> rows, List<Line> lines, double max,
            String maxLabel) {
        int plotW = WIDTH - LEFT - RIGHT;
        g.setColor(Color.GRAY);
        g.setStroke(new BasicStroke(1));
        g.drawRect(LEFT, top, plotW, plotH);
        g.drawString(maxLabel, 5, top + 10);
        g.drawString("0", LEFT - 15, top + plotH);
        g.drawString(rows.size() + " s", LEFT + plotW - 20, top + plotH + 15);
        g.drawString("time (s)", LEFT + plotW / 2 - 20, top + plotH + 15);
        for (int s = 0; s < lines.size(); s++) {
            Line line = lines.get(s);
            g.setColor(line.color());
            g.setStroke(line.dashed() ? new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10,
                    new float[] {5, 4}, 0) : new BasicStroke(2));
            for (int i = 1; i < rows.size(); i++) {
                double from = rows.get(i - 1)[line.column()];
                double to = rows.get(i)[line.column()];
                if (!Double.isNaN(from) && !Double.isNaN(to)) { // a second the agent reported nothing: a gap
                    g.drawLine(x(i - 1, rows.size(), plotW), y(from, max, top, plotH), x(i, rows.size(), plotW),
                            y(to, max, top, plotH));
                }
            }
            g.drawString(line.label(), LEFT + plotW + 10, top + 15 + s * 18);
        }
    }

    private static boolean hasData(List<double[]> rows, int column) {
        return rows.stream().anyMatch(r -> column < r.length && !Double.isNaN(r[column]));
    }

    private static int x(int i, int n, int plotW) {
        return LEFT + (int) Math.round(plotW * (double) i / Math.max(1, n - 1));
    }

    private static int y(double v, double max, int top, int plotH) {
        return top + plotH - (int) Math.round(plotH * Math.min(v, max) / max);
    }
}
