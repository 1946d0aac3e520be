package io.loadwise.capacity.chart;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Per-second traces as lines, in panels stacked under one title, like the seed's selection, failure and load
 * traces (figures 49-63). Each panel runs from 0 to its own top value (values above it are drawn at the top); a
 * second without a value (NaN) leaves a gap in its line.
 */
public final class TraceChart {

    public static final int WIDTH = 760;
    private static final int TOP = 40;
    private static final int GAP = 40;

    /** One series: a value per point in time (NaN where there was none), its colour, dashed or solid, its legend. */
    public record Line(double[] perSecond, Color color, boolean dashed, String label) {
        public Line {
            perSecond = perSecond.clone();
        }
    }

    private record Panel(int height, double max, String maxLabel, List<Line> lines) {
    }

    private final String title;
    private final double step;
    private final String timeLabel;
    private final List<Panel> panels = new ArrayList<>();

    /** One value per second, the time axis in seconds. */
    public TraceChart(String title) {
        this(title, 1, "time (s)");
    }

    /**
     * One value per {@code step} units of time, the time axis labelled {@code timeLabel} ({@code 1.0 / 6}, "time
     * (min)" for a sample every 10 s).
     */
    public TraceChart(String title, double step, String timeLabel) {
        this.title = title;
        this.step = step;
        this.timeLabel = timeLabel;
    }

    /**
     * Adds a panel {@code height} pixels high under the previous ones. Its top is {@code max}, its axis labelled
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
        Charts.writePng(chart(), png, WIDTH, height);
    }

    JFreeChart chart() {
        int seconds = 0;
        for (Panel panel : panels) {
            for (Line line : panel.lines()) {
                seconds = Math.max(seconds, line.perSecond().length);
            }
        }
        NumberAxis time = new NumberAxis(timeLabel);
        time.setRange(0, Math.max(1, seconds - 1) * step);
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(time);
        plot.setGap(GAP / 2.0);
        for (Panel panel : panels) {
            XYSeriesCollection data = new XYSeriesCollection();
            XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
            for (int s = 0; s < panel.lines().size(); s++) {
                Line line = panel.lines().get(s);
                XYSeries xy = new XYSeries(new SeriesKey(s, line.label()), false, true);
                double[] v = line.perSecond();
                for (int i = 0; i < v.length; i++) {
                    xy.add(i * step, Double.isNaN(v[i]) ? Double.NaN : Math.min(v[i], panel.max()));
                }
                data.addSeries(xy);
            }
            NumberAxis axis = new NumberAxis(panel.maxLabel());
            axis.setRange(0, panel.max());
            plot.add(new XYPlot(data, null, axis, renderer), panel.height());
        }
        JFreeChart chart = Charts.styled(new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true));
        List<?> subplots = plot.getSubplots();
        for (int p = 0; p < panels.size(); p++) {
            XYLineAndShapeRenderer renderer = (XYLineAndShapeRenderer) ((XYPlot) subplots.get(p)).getRenderer();
            List<Line> lines = panels.get(p).lines();
            for (int s = 0; s < lines.size(); s++) {
                renderer.setSeriesPaint(s, lines.get(s).color());
                renderer.setSeriesStroke(s, Charts.stroke(lines.get(s).dashed() ? 1.5f : 2f, lines.get(s).dashed()));
            }
        }
        return chart;
    }
}
