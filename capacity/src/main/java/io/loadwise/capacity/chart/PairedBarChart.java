package io.loadwise.capacity.chart;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.labels.CategoryItemLabelGenerator;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.data.category.CategoryDataset;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * Two horizontal bar panels side by side, one row per item and each panel scaled to its own largest value: the
 * benchmark runner's throughput (left) and failed samples (right) per policy, the way seed figures 48, 52, 54, 58
 * and 61 compare policies. Each bar carries its value as text.
 */
public final class PairedBarChart {

    /** One panel: its heading and the {@link String#format} pattern of the values written beside its bars. */
    public record Panel(String title, String valueFormat) {
    }

    private record Row(String label, double left, double right) {
    }

    static final int WIDTH = 1000;
    private static final int ROW_HEIGHT = 24;
    static final Color LEFT_COLOUR = new Color(70, 120, 190);
    static final Color RIGHT_COLOUR = new Color(200, 70, 60);

    private final String title;
    private final Panel left;
    private final Panel right;
    private final List<Row> rows = new ArrayList<>();

    public PairedBarChart(String title, Panel left, Panel right) {
        this.title = title;
        this.left = left;
        this.right = right;
    }

    public PairedBarChart add(String label, double leftValue, double rightValue) {
        rows.add(new Row(label, leftValue, rightValue));
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** The image is as tall as its rows need: 100 pixels of title and axes, 24 per row. */
    public void writePng(Path png) throws IOException {
        Charts.writePng(chart(), png, WIDTH, 100 + rows.size() * ROW_HEIGHT);
    }

    JFreeChart chart() {
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(new CategoryAxis());
        plot.setOrientation(PlotOrientation.HORIZONTAL); // rows down the left, the two panels side by side
        plot.setGap(30);
        plot.add(panel(left, true), 1);
        plot.add(panel(right, false), 1);
        JFreeChart chart = Charts.styled(new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, false));
        for (Object sub : plot.getSubplots()) {
            CategoryPlot p = (CategoryPlot) sub;
            ((BarRenderer) p.getRenderer()).setSeriesPaint(0, p == plot.getSubplots().get(0) ? LEFT_COLOUR : RIGHT_COLOUR);
        }
        return chart;
    }

    private CategoryPlot panel(Panel panel, boolean isLeft) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        double max = 0;
        for (Row row : rows) {
            double v = isLeft ? row.left : row.right;
            data.addValue(v, panel.title(), row.label);
            max = Math.max(max, v);
        }
        NumberAxis axis = new NumberAxis(panel.title());
        axis.setRange(0, Math.max(isLeft ? 1e-9 : 1, max) * 1.25); // room for the value beside the longest bar
        BarRenderer renderer = new BarRenderer();
        renderer.setDefaultItemLabelGenerator(new Formatted(panel.valueFormat()));
        renderer.setDefaultItemLabelsVisible(true);
        renderer.setDefaultPositiveItemLabelPosition(new ItemLabelPosition(ItemLabelAnchor.OUTSIDE3,
                TextAnchor.CENTER_LEFT)); // beside the bar's end: the panels lie on their side
        renderer.setMaximumBarWidth(0.8);
        return new CategoryPlot(data, null, axis, renderer);
    }

    /** A bar's label: its value through the panel's {@link String#format} pattern. */
    private record Formatted(String format) implements CategoryItemLabelGenerator {
        @Override
        public String generateRowLabel(CategoryDataset dataset, int row) {
            return dataset.getRowKey(row).toString();
        }

        @Override
        public String generateColumnLabel(CategoryDataset dataset, int column) {
            return dataset.getColumnKey(column).toString();
        }

        @Override
        public String generateLabel(CategoryDataset dataset, int row, int column) {
            Number value = dataset.getValue(row, column);
            return value == null ? null : String.format(Locale.ROOT, format, value.doubleValue());
        }
    }
}
