package io.loadwise.capacity.chart;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.data.category.DefaultCategoryDataset;

/** Grouped bars on a 0..1 scale: one group per policy, one bar per node (per-node utilisation). */
public final class BarChart {

    static final int WIDTH = 960;
    static final int HEIGHT = 600;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<String> groups = new ArrayList<>();
    private final List<double[]> values = new ArrayList<>();
    private final String barPrefix;

    public BarChart(String title, String xLabel, String yLabel, String barPrefix) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.barPrefix = barPrefix;
    }

    public BarChart add(String group, double[] bars) {
        groups.add(group);
        values.add(bars.clone());
        return this;
    }

    public void writePng(Path file) throws IOException {
        Charts.writePng(chart(), file, WIDTH, HEIGHT);
    }

    /** The chart as drawn: values outside 0..1 are drawn at its edge. */
    JFreeChart chart() {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        int maxBars = 0;
        for (int g = 0; g < groups.size(); g++) {
            double[] v = values.get(g);
            maxBars = Math.max(maxBars, v.length);
            for (int b = 0; b < v.length; b++) {
                data.addValue(Math.max(0, Math.min(1, v[b])), barPrefix + (b + 1), groups.get(g));
            }
        }
        NumberAxis yAxis = new NumberAxis(yLabel);
        yAxis.setRange(0, 1);
        yAxis.setTickUnit(new NumberTickUnit(0.1));
        BarRenderer renderer = new BarRenderer();
        CategoryPlot plot = new CategoryPlot(data, new CategoryAxis(xLabel), yAxis, renderer);
        JFreeChart chart = Charts.styled(new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true));
        for (int b = 0; b < maxBars; b++) {
            renderer.setSeriesPaint(b, Charts.PALETTE[b % Charts.PALETTE.length]);
        }
        renderer.setItemMargin(0.02);
        return chart;
    }
}
