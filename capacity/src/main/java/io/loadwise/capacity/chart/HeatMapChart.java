package io.loadwise.capacity.chart;

import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.PaintScale;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.DefaultXYZDataset;

/**
 * A grid of ratios, one coloured cell each: green below 1 (better than the reference), white at 1, red above,
 * saturating at {@code 1 ± range}; each cell also prints its ratio. Rows and columns carry labels. Used for the
 * simulator's robustness grid (adaptive's mean response time over the best agent-blind policy's, per cell).
 */
public final class HeatMapChart {

    private static final int CELL_W = 44;
    private static final int CELL_H = 26;
    private static final int LEFT = 230;
    private static final int TOP = 150;
    private static final int MARGIN = 40;

    private final String title;
    private final String subtitle;
    private final List<String> rows;
    private final List<String> columns;
    private final double[][] values;
    private final double range;

    /**
     * @param values {@code values[row][column]}, NaN for an empty cell
     * @param range how far from 1 the colours saturate (0.1: at 0.9 and 1.1)
     */
    public HeatMapChart(String title, String subtitle, List<String> rows, List<String> columns, double[][] values,
            double range) {
        if (values.length != rows.size()) {
            throw new IllegalArgumentException(values.length + " rows of values for " + rows.size() + " labels");
        }
        for (double[] row : values) {
            if (row.length != columns.size()) {
                throw new IllegalArgumentException(row.length + " columns of values for " + columns.size() + " labels");
            }
        }
        this.title = title;
        this.subtitle = subtitle;
        this.rows = List.copyOf(rows);
        this.columns = List.copyOf(columns);
        this.values = values;
        this.range = range;
    }

    public void writePng(Path file) throws IOException {
        int width = Math.max(900, LEFT + columns.size() * CELL_W + MARGIN); // room for the subtitle
        int height = TOP + rows.size() * CELL_H + MARGIN;
        Charts.writePng(chart(), file, width, height);
    }

    /** The cell colour of {@code ratio}: white at 1, green below, red above, grey for NaN. */
    static Color colour(double ratio, double range) {
        if (Double.isNaN(ratio)) {
            return new Color(0xd0d0d0);
        }
        double t = Math.max(-1, Math.min(1, (ratio - 1) / range));
        int fade = (int) Math.round(255 * (1 - Math.abs(t)));
        return t > 0 ? new Color(255, fade, fade) : new Color(fade, 255, fade);
    }

    JFreeChart chart() {
        int cells = rows.size() * columns.size();
        double[][] xyz = new double[3][cells];
        int i = 0;
        XYBlockRenderer renderer = new XYBlockRenderer();
        for (int r = 0; r < rows.size(); r++) {
            for (int c = 0; c < columns.size(); c++, i++) {
                xyz[0][i] = c;
                xyz[1][i] = r;
                xyz[2][i] = values[r][c];
            }
        }
        DefaultXYZDataset data = new DefaultXYZDataset();
        data.addSeries("ratio", xyz);
        renderer.setPaintScale(new RatioScale(range));
        SymbolAxis xAxis = new SymbolAxis(null, columns.toArray(String[]::new));
        xAxis.setVerticalTickLabels(true);
        xAxis.setGridBandsVisible(false);
        SymbolAxis yAxis = new SymbolAxis(null, rows.toArray(String[]::new));
        yAxis.setInverted(true); // the first row on top
        yAxis.setGridBandsVisible(false);
        XYPlot plot = new XYPlot(data, xAxis, yAxis, renderer);
        for (int r = 0; r < rows.size(); r++) {
            for (int c = 0; c < columns.size(); c++) {
                if (!Double.isNaN(values[r][c])) {
                    XYTextAnnotation label = new XYTextAnnotation(
                            String.format(Locale.ROOT, "%.2f", values[r][c]), c, r);
                    label.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
                    plot.addAnnotation(label);
                }
            }
        }
        JFreeChart chart = Charts.styled(new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, false));
        chart.addSubtitle(new TextTitle(subtitle, new Font(Font.SANS_SERIF, Font.PLAIN, 11)));
        plot.setDomainGridlinesVisible(false);
        plot.setRangeGridlinesVisible(false);
        return chart;
    }

    /** {@link #colour} as JFreeChart's paint scale. */
    private record RatioScale(double range) implements PaintScale {
        @Override
        public double getLowerBound() {
            return 1 - range;
        }

        @Override
        public double getUpperBound() {
            return 1 + range;
        }

        @Override
        public Paint getPaint(double value) {
            return colour(value, range);
        }
    }
}
