package io.loadwise.console.store;

import io.loadwise.capacity.chart.Charts;
import io.loadwise.capacity.chart.SeriesKey;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.DateAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.HorizontalAlignment;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.rrd4j.ConsolFun;
import org.rrd4j.core.FetchData;

/**
 * Draws one series of one store as a PNG (the project's one chart stack, {@link Charts}, over what rrd4j stored):
 * the AVERAGE archive as a thick line over the MAX archive as a thin one, with the last, mean and peak values under
 * the plot; or, for series gathered from several replicas, one line per {@link Line} ({@link #lines}).
 */
public final class SeriesGraph {

    /** Size of the plot area in pixels, about; the image adds axes, title and legend around it. */
    public static final int PLOT_WIDTH = 640;
    public static final int PLOT_HEIGHT = 200;
    /** The plot area's colour, which no line uses (tests find the plot area by it). */
    public static final Color CANVAS = Charts.CANVAS;
    public static final Color AVERAGE_COLOR = new Color(0x1f, 0x5f, 0xbf);
    public static final Color MAX_COLOR = new Color(0xe0, 0x70, 0x20);
    /** The image around a plot of {@link #PLOT_WIDTH} × {@link #PLOT_HEIGHT}: axes, title, legend and notes. */
    private static final int IMAGE_WIDTH = PLOT_WIDTH + 100;
    private static final int IMAGE_HEIGHT = PLOT_HEIGHT + 130;
    private static final int NOTE_HEIGHT = 16;

    /** The colours of one line per replica, in order, then again from the first. */
    public static final List<Color> LINE_COLORS = List.of(AVERAGE_COLOR, MAX_COLOR, new Color(0x2a, 0x9d, 0x40),
            new Color(0xb0, 0x20, 0x60), new Color(0x70, 0x40, 0xb0), new Color(0x10, 0x90, 0xa0),
            new Color(0x80, 0x60, 0x10), new Color(0x50, 0x50, 0x50));

    private SeriesGraph() {
    }

    /** One line of a {@link #lines} graph: a label for the legend and its points. */
    public record Line(String label, SeriesPoints points) {
    }

    /**
     * Draws each line in its colour ({@link #LINE_COLORS}), with its last, mean and peak value under the plot.
     *
     * @param title shown above the plot, e.g. {@code "web, sum of 2 replicas"}
     * @param note one more line under the plot, e.g. which replicas did not answer; {@code null} for none
     */
    public static byte[] lines(Series series, Window window, String title, List<Line> lines, String note)
            throws IOException {
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("no lines to draw");
        }
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        JFreeChart chart = chart(series, window, title, data, renderer);
        List<String> notes = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            SeriesPoints points = lines.get(i).points();
            data.addSeries(xy(i, lines.get(i).label(), points.timestamps(), points.values()));
            renderer.setSeriesPaint(i, LINE_COLORS.get(i % LINE_COLORS.size()));
            renderer.setSeriesStroke(i, Charts.stroke(2f, false));
            notes.add(lines.get(i).label() + ": " + Stats.of(points.values()).text(series));
        }
        notes.add(series.description());
        if (note != null) {
            notes.add(note);
        }
        return png(chart, notes);
    }

    /**
     * @param store {@code null}, or not holding {@code series}, when nothing of it is recorded: the graph
     *     is drawn with nothing on it
     * @param title shown above the plot, e.g. {@code "web / n1"}
     * @param endSeconds the right edge (now), epoch seconds
     */
    public static byte[] png(MetricStore store, Series series, Window window, String title, long endSeconds)
            throws IOException {
        long resolution = window.resolutionSeconds();
        long end = endSeconds - endSeconds % resolution;
        long start = end - window.seconds();
        long[] timestamps;
        double[] average;
        double[] max;
        if (store != null && store.holds(series)) {
            FetchData avg = store.fetch(series, ConsolFun.AVERAGE, start, end, resolution);
            FetchData peak = store.fetch(series, ConsolFun.MAX, start, end, resolution);
            timestamps = avg.getTimestamps();
            average = avg.getValues(series.dsName());
            max = peak.getValues(series.dsName());
            if (max.length != average.length) {
                max = average;
            }
        } else {
            timestamps = new long[] {start, end};
            average = new double[] {Double.NaN, Double.NaN};
            max = average;
        }
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        JFreeChart chart = chart(series, window, title, data, renderer);
        data.addSeries(xy(0, "maximum", timestamps, max));
        data.addSeries(xy(1, "average", timestamps, average));
        renderer.setSeriesPaint(0, MAX_COLOR);
        renderer.setSeriesStroke(0, Charts.stroke(1f, false));
        renderer.setSeriesPaint(1, AVERAGE_COLOR);
        renderer.setSeriesStroke(1, Charts.stroke(2f, false));
        Stats avg = Stats.of(average);
        Stats peak = Stats.of(max);
        return png(chart, List.of(String.format(Locale.ROOT, "last %s   mean %s   peak %s", value(avg.last, series),
                value(avg.mean, series), value(peak.peak, series)), series.description()));
    }

    private static JFreeChart chart(Series series, Window window, String title, XYSeriesCollection data,
            XYLineAndShapeRenderer renderer) {
        DateAxis time = new DateAxis();
        time.setTimeZone(TimeZone.getTimeZone("UTC"));
        NumberAxis value = new NumberAxis(series.unit());
        value.setAutoRangeIncludesZero(true);
        XYPlot plot = new XYPlot(data, time, value, renderer);
        JFreeChart chart = new JFreeChart(title + " — " + series.metric() + ", last " + window.key(),
                new Font(Font.SANS_SERIF, Font.BOLD, 13), plot, true);
        Charts.styled(chart);
        chart.setAntiAlias(false); // lines of exactly their colour: crisp at this size, and findable by tests
        chart.setTextAntiAlias(true);
        LegendTitle legend = chart.getLegend();
        legend.setPosition(RectangleEdge.BOTTOM);
        legend.setHorizontalAlignment(HorizontalAlignment.LEFT);
        return chart;
    }

    /**
     * The chart as PNG, with {@code notes} under the legend, one per line, in order. JFreeChart lays bottom titles
     * out from the image's edge inwards, so the notes go in last first and the legend after them.
     */
    private static byte[] png(JFreeChart chart, List<String> notes) throws IOException {
        LegendTitle legend = chart.getLegend();
        chart.removeLegend();
        for (int i = notes.size() - 1; i >= 0; i--) {
            TextTitle line = new TextTitle(notes.get(i), new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            line.setPosition(RectangleEdge.BOTTOM);
            line.setHorizontalAlignment(HorizontalAlignment.LEFT);
            chart.addSubtitle(line);
        }
        chart.addSubtitle(legend);
        return Charts.png(chart, IMAGE_WIDTH, IMAGE_HEIGHT + notes.size() * NOTE_HEIGHT);
    }

    /** Epoch seconds and values as an XY series of epoch milliseconds; NaN leaves a gap. */
    private static XYSeries xy(int index, String label, long[] timestamps, double[] values) {
        XYSeries xy = new XYSeries(new SeriesKey(index, label), false, true);
        for (int i = 0; i < timestamps.length && i < values.length; i++) {
            xy.add(timestamps[i] * 1000.0, values[i]);
        }
        return xy;
    }

    private static String value(double v, Series series) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f %s", v, series.unit());
    }

    /** The last known value, the mean and the peak of the known ones (NaN when none is known). */
    private record Stats(double last, double mean, double peak) {
        static Stats of(double[] values) {
            double last = Double.NaN;
            double sum = 0;
            double peak = Double.NaN;
            int known = 0;
            for (double v : values) {
                if (!Double.isNaN(v)) {
                    last = v;
                    sum += v;
                    known++;
                    peak = Double.isNaN(peak) ? v : Math.max(peak, v);
                }
            }
            return new Stats(last, known == 0 ? Double.NaN : sum / known, peak);
        }

        String text(Series series) {
            return String.format(Locale.ROOT, "last %s   mean %s   peak %s", value(last, series), value(mean, series),
                    value(peak, series));
        }
    }
}
