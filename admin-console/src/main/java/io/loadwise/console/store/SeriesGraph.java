package io.loadwise.console.store;

import java.awt.Color;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.rrd4j.ConsolFun;
import org.rrd4j.data.IPlottable;
import org.rrd4j.data.Variable;
import org.rrd4j.graph.ElementsNames;
import org.rrd4j.graph.RrdGraph;
import org.rrd4j.graph.RrdGraphConstants;
import org.rrd4j.graph.RrdGraphDef;

/**
 * Draws one series of one store as a PNG with rrd4j's graph API: the AVERAGE archive as a thick line
 * over the MAX archive as a thin one, with the last, mean and peak values in the legend; or, for series
 * gathered from several replicas, one line per {@link Line} ({@link #lines}).
 */
public final class SeriesGraph {

    /** Size of the plot area in pixels; the image adds axes, title and legend around it. */
    public static final int PLOT_WIDTH = 640;
    public static final int PLOT_HEIGHT = 200;
    /** The plot area's colour, which no line uses (tests find the plot area by it). */
    public static final Color CANVAS = Color.WHITE;
    public static final Color AVERAGE_COLOR = new Color(0x1f, 0x5f, 0xbf);
    public static final Color MAX_COLOR = new Color(0xe0, 0x70, 0x20);

    static {
        // Graphs are drawn in a server: never look for a display.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

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
     * Draws each line in its colour ({@link #LINE_COLORS}), with its last, mean and peak value in the legend.
     *
     * @param title shown above the plot, e.g. {@code "web, sum of 2 replicas"}
     * @param note one more legend line, e.g. which replicas did not answer; {@code null} for none
     */
    public static byte[] lines(Series series, Window window, String title, List<Line> lines, String note)
            throws IOException {
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("no lines to draw");
        }
        SeriesPoints grid = lines.get(0).points();
        RrdGraphDef def = new RrdGraphDef(grid.start(), grid.end());
        def.setFilename(RrdGraphConstants.IN_MEMORY_IMAGE);
        def.setImageFormat("png");
        def.setWidth(PLOT_WIDTH);
        def.setHeight(PLOT_HEIGHT);
        def.setTitle(title + " — " + series.metric() + ", last " + window.key());
        def.setVerticalLabel(series.unit());
        def.setLocale(Locale.ROOT);
        def.setShowSignature(false);
        def.setAntiAliasing(false);
        def.setColor(ElementsNames.canvas, CANVAS);
        for (int i = 0; i < lines.size(); i++) {
            SeriesPoints points = lines.get(i).points();
            String name = "l" + i;
            def.datasource(name, (IPlottable) points::valueCovering);
            def.datasource(name + "_last", name, new Variable.LAST());
            def.datasource(name + "_mean", name, new Variable.AVERAGE());
            def.datasource(name + "_peak", name, new Variable.MAX());
            def.line(name, LINE_COLORS.get(i % LINE_COLORS.size()), legend(lines.get(i).label()), 2);
            def.gprint(name + "_last", "last %.2f %s");
            def.gprint(name + "_mean", "mean %.2f %s");
            def.gprint(name + "_peak", "peak %.2f %s\\l");
        }
        def.comment(series.description() + "\\l");
        if (note != null) {
            def.comment(legend(note) + "\\l");
        }
        return new RrdGraph(def).getRrdGraphInfo().getBytes();
    }

    /** Text for a legend: rrd4j reads a backslash as the start of a directive, so backslashes are dropped. */
    private static String legend(String text) {
        return text.replace("\\", "");
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
        RrdGraphDef def = new RrdGraphDef(start, end);
        def.setFilename(RrdGraphConstants.IN_MEMORY_IMAGE);
        def.setImageFormat("png");
        def.setWidth(PLOT_WIDTH);
        def.setHeight(PLOT_HEIGHT);
        def.setTitle(title + " — " + series.metric() + ", last " + window.key());
        def.setVerticalLabel(series.unit());
        def.setLocale(Locale.ROOT);
        def.setShowSignature(false);
        def.setAntiAliasing(false);
        def.setColor(ElementsNames.canvas, CANVAS);

        if (store != null && store.holds(series)) {
            def.datasource("avg", series.dsName(), store.fetch(series, ConsolFun.AVERAGE, start, end, resolution));
            def.datasource("max", series.dsName(), store.fetch(series, ConsolFun.MAX, start, end, resolution));
        } else {
            IPlottable unknown = timestamp -> Double.NaN;
            def.datasource("avg", unknown);
            def.datasource("max", unknown);
        }
        def.datasource("avg_last", "avg", new Variable.LAST());
        def.datasource("avg_mean", "avg", new Variable.AVERAGE());
        def.datasource("max_peak", "max", new Variable.MAX());
        def.line("max", MAX_COLOR, "maximum", 1);
        def.line("avg", AVERAGE_COLOR, "average", 2);
        def.comment("\\l");
        def.gprint("avg_last", "last %.2f %s");
        def.gprint("avg_mean", "mean %.2f %s");
        def.gprint("max_peak", "peak %.2f %s\\l");
        def.comment(series.description() + "\\l");
        return new RrdGraph(def).getRrdGraphInfo().getBytes();
    }
}
