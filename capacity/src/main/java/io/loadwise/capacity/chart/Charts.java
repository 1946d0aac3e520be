package io.loadwise.capacity.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Stroke;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.StandardChartTheme;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;

/**
 * The project's one chart stack: every chart (the console's metric graphs, the capacity planner's curves, the
 * benchmarks' and the simulator's figures) is a JFreeChart with this look, written as PNG. Charts are drawn on
 * servers and build machines: headless, never a display.
 */
public final class Charts {

    /** The series colours, in order (matplotlib's "tab10": told apart by most colour-blind readers). */
    public static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
        new Color(0xbcbd22), new Color(0x17becf)};
    /** The plot area's colour, which no series uses (tests find the plot area by it). */
    public static final Color CANVAS = Color.WHITE;
    /** Around the plot: title, axes, legend. */
    public static final Color BACKGROUND = new Color(0xf6f6f6);
    public static final Color GRID = new Color(0xd8d8d8);

    private static final StandardChartTheme THEME = theme();

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private Charts() {
    }

    private static StandardChartTheme theme() {
        StandardChartTheme theme = new StandardChartTheme("loadwise");
        theme.setExtraLargeFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        theme.setLargeFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        theme.setRegularFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        theme.setSmallFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        theme.setChartBackgroundPaint(BACKGROUND);
        theme.setPlotBackgroundPaint(CANVAS);
        theme.setLegendBackgroundPaint(BACKGROUND);
        theme.setDomainGridlinePaint(GRID);
        theme.setRangeGridlinePaint(GRID);
        theme.setPlotOutlinePaint(Color.DARK_GRAY);
        theme.setShadowVisible(false);
        theme.setBarPainter(new StandardBarPainter());
        theme.setXYBarPainter(new StandardXYBarPainter());
        return theme;
    }

    /** Gives {@code chart} the house look; call before setting series colours, which the theme would reset. */
    public static JFreeChart styled(JFreeChart chart) {
        THEME.apply(chart);
        Plot plot = chart.getPlot();
        plot.setNoDataMessage("no finite data");
        return chart;
    }

    /** A line {@code width} pixels wide, dashed or solid. */
    public static Stroke stroke(float width, boolean dashed) {
        return dashed ? new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f,
                new float[] {8f, 5f}, 0f) : new BasicStroke(width);
    }

    /** The chart as PNG bytes, {@code width} × {@code height}. */
    public static byte[] png(JFreeChart chart, int width, int height) throws IOException {
        return ChartUtils.encodeAsPNG(chart.createBufferedImage(width, height));
    }

    /** Writes the chart to {@code file} as PNG, creating its folder. */
    public static void writePng(JFreeChart chart, Path file, int width, int height) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.write(file, png(chart, width, height));
    }
}
