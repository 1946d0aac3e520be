package io.loadwise.capacity.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Per-second traces as lines, in panels stacked under one title, like the seed's selection, failure and
 * load traces (figures 49-63). Each panel runs from 0 to its own top value; a second without a value
 * (NaN) leaves a gap in its line; the legend stands to the right of each panel.
 */
public final class TraceChart {

    public static final int WIDTH = 760;
    private static final int LEFT = 60;
    private static final int RIGHT = 150;
    private static final int TOP = 40;
    private static final int GAP = 40;

    /** One series: a value per second (NaN where there was none), its colour, dashed or solid, its legend. */
    public record Line(double[] perSecond, Color color, boolean dashed, String label) {
        public Line {
            perSecond = perSecond.clone();
        }
    }

    private record Panel(int height, double max, String maxLabel, List<Line> lines) {
    }

    private final String title;
    private final List<Panel> panels = new ArrayList<>();

    public TraceChart(String title) {
        this.title = title;
    }

    /**
     * Adds a panel {@code height} pixels high under the previous ones. Its top is {@code max}, labelled
     * {@code maxLabel}; values above it are drawn at the top.
     */
    public TraceChart panel(int height, double max, String maxLabel, List<Line> lines) {
        panels.add(new Panel(height, max, maxLabel, List.copyOf(lines)));
        return this;
    }

    public void writePng(Path png) throws IOException {
        int height = TOP;
        for (Panel p : panels) {
            height += p.height() + GAP;
        }
        ChartCanvas.writePng(png, WIDTH, height, this::draw);
    }

    private void draw(Graphics2D g) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        g.drawString(title, 10, 20);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        int top = TOP;
        for (Panel p : panels) {
            drawPanel(g, top, p);
            top += p.height() + GAP;
        }
    }

    private static void drawPanel(Graphics2D g, int top, Panel panel) {
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = panel.height();
        int seconds = 0;
        for (Line line : panel.lines()) {
            seconds = Math.max(seconds, line.perSecond().length);
        }
        g.setColor(Color.GRAY);
        g.setStroke(new BasicStroke(1));
        g.drawRect(LEFT, top, plotW, plotH);
        g.drawString(panel.maxLabel(), 5, top + 10);
        g.drawString("0", LEFT - 15, top + plotH);
        g.drawString(seconds + " s", LEFT + plotW - 20, top + plotH + 15);
        g.drawString("time (s)", LEFT + plotW / 2 - 20, top + plotH + 15);
        for (int s = 0; s < panel.lines().size(); s++) {
            Line line = panel.lines().get(s);
            double[] v = line.perSecond();
            g.setColor(line.color());
            g.setStroke(line.dashed() ? new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10,
                    new float[] {5, 4}, 0) : new BasicStroke(2));
            for (int i = 1; i < v.length; i++) {
                if (!Double.isNaN(v[i - 1]) && !Double.isNaN(v[i])) {
                    g.drawLine(x(i - 1, seconds, plotW), y(v[i - 1], panel.max(), top, plotH), x(i, seconds, plotW),
                            y(v[i], panel.max(), top, plotH));
                }
            }
            g.drawString(line.label(), LEFT + plotW + 10, top + 15 + s * 18);
        }
    }

    private static int x(int i, int n, int plotW) {
        return LEFT + (int) Math.round(plotW * (double) i / Math.max(1, n - 1));
    }

    private static int y(double v, double max, int top, int plotH) {
        return top + plotH - (int) Math.round(plotH * Math.min(v, max) / max);
    }
}
