package io.loadwise.capacity.chart;

import java.awt.geom.Ellipse2D;
import java.io.IOException;
import java.text.DecimalFormat;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * X/Y line chart with markers, linear x axis and linear or logarithmic y axis. Non-finite points (unstable models,
 * empty runs), non-positive ones on a log axis and those above {@link #clipY} are not drawn and break the line.
 */
public final class LineChart {

    static final int WIDTH = 960;
    static final int HEIGHT = 600;
    /** At most this many points per series get a marker; more would blot the line. */
    private static final int MARKED_POINTS = 40;

    private record Series(String name, double[] x, double[] y, boolean dashed, int color) {
    }

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logY;
    private final List<Series> series = new ArrayList<>();
    private Double yMaxClip;

    public LineChart(String title, String xLabel, String yLabel, boolean logY) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logY = logY;
    }

    public LineChart add(String name, double[] x, double[] y) {
        series.add(new Series(name, x.clone(), y.clone(), false, series.size()));
        return this;
    }

    /** A dashed series in the colour of the previous one (a model variant of the same case). */
    public LineChart addDashed(String name, double[] x, double[] y) {
        int color = series.isEmpty() ? 0 : series.get(series.size() - 1).color;
        series.add(new Series(name, x.clone(), y.clone(), true, color));
        return this;
    }

    /** Points above this value are not drawn (e.g. response times near saturation). */
    public LineChart clipY(double max) {
        yMaxClip = max;
        return this;
    }

    public void writePng(Path file) throws IOException {
        Charts.writePng(chart(), file, WIDTH, HEIGHT);
    }

    /** The chart as drawn: a series per {@link #add}, with NaN where a point is not drawn. */
    JFreeChart chart() {
        XYSeriesCollection data = new XYSeriesCollection();
        boolean anyDrawn = false;
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            XYSeries xy = new XYSeries(new SeriesKey(k, s.name), false, true);
            for (int i = 0; i < s.x.length; i++) {
                boolean drawn = drawable(s.y[i]) && Double.isFinite(s.x[i]);
                anyDrawn |= drawn;
                xy.add(s.x[i], drawn ? s.y[i] : Double.NaN);
            }
            data.addSeries(xy);
        }
        ValueAxis yAxis;
        if (logY) {
            LogAxis log = new LogAxis(yLabel);
            log.setSmallestValue(1e-9);
            log.setTickUnit(new NumberTickUnit(1)); // a tick per decade, labelled 1, 10, 100 rather than 10^n
            log.setMinorTickCount(9);
            log.setMinorTickMarksVisible(true);
            log.setNumberFormatOverride(new DecimalFormat("#,##0.###"));
            yAxis = log;
        } else {
            NumberAxis linear = new NumberAxis(yLabel);
            linear.setAutoRangeIncludesZero(true);
            yAxis = linear;
        }
        NumberAxis xAxis = new NumberAxis(xLabel);
        xAxis.setAutoRangeIncludesZero(false);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        XYPlot plot = new XYPlot(anyDrawn ? data : new XYSeriesCollection(), xAxis, yAxis, renderer);
        JFreeChart chart = Charts.styled(new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true));
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            renderer.setSeriesPaint(k, Charts.PALETTE[s.color % Charts.PALETTE.length]);
            renderer.setSeriesStroke(k, Charts.stroke(2f, s.dashed));
            renderer.setSeriesShapesVisible(k, s.x.length <= MARKED_POINTS);
            renderer.setSeriesShape(k, new Ellipse2D.Double(-3.5, -3.5, 7, 7));
        }
        return chart;
    }

    private boolean drawable(double y) {
        return Double.isFinite(y) && (!logY || y > 0) && (yMaxClip == null || y <= yMaxClip);
    }
}
