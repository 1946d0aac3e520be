package io.loadwise.capacity.chart;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A grid of ratios, one coloured cell each: green below 1 (better than the reference), white at 1, red
 * above, saturating at {@code 1 ± range}; each cell also prints its ratio. Rows and columns carry labels.
 * Used for the simulator's robustness grid (adaptive's mean response time over the best agent-blind
 * policy's, per cell).
 */
public final class HeatMapChart {

    private static final int CELL_W = 44;
    private static final int CELL_H = 26;
    private static final int LEFT = 230;
    private static final int TOP = 110;
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
        ChartCanvas.writePng(file, width, height, this::paint);
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

    private void paint(Graphics2D g) {
        g.setColor(Color.BLACK);
        g.setFont(g.getFont().deriveFont(Font.BOLD, 15f));
        g.drawString(title, 10, 22);
        g.setFont(g.getFont().deriveFont(Font.PLAIN, 11f));
        g.drawString(subtitle, 10, 40);
        for (int c = 0; c < columns.size(); c++) {
            int x = LEFT + c * CELL_W;
            Graphics2D rotated = (Graphics2D) g.create();
            rotated.translate(x + CELL_W / 2 + 4, TOP - 4);
            rotated.rotate(-Math.PI / 2.6);
            rotated.drawString(columns.get(c), 0, 0);
            rotated.dispose();
        }
        for (int r = 0; r < rows.size(); r++) {
            int y = TOP + r * CELL_H;
            g.setColor(Color.BLACK);
            g.drawString(rows.get(r), 10, y + CELL_H / 2 + 4);
            for (int c = 0; c < columns.size(); c++) {
                int x = LEFT + c * CELL_W;
                double v = values[r][c];
                g.setColor(colour(v, range));
                g.fillRect(x, y, CELL_W, CELL_H);
                g.setColor(new Color(0x909090));
                g.drawRect(x, y, CELL_W, CELL_H);
                if (!Double.isNaN(v)) {
                    g.setColor(Color.BLACK);
                    String label = String.format(Locale.ROOT, "%.2f", v);
                    g.drawString(label, x + (CELL_W - g.getFontMetrics().stringWidth(label)) / 2, y + CELL_H / 2 + 4);
                }
            }
        }
    }
}
