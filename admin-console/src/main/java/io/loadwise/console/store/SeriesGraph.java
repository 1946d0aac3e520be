package io.loadwise.console.store;

import java.awt.Color;
import java.io.IOException;
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
 * over the MAX archive as a thin one, with the last, mean and peak values in the legend.
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

    private SeriesGraph() {
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
