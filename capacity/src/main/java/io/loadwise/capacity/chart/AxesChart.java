package io.loadwise.capacity.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The frame of the axis charts ({@link LineChart}, {@link BarChart}): a 960 × 600 {@link ChartCanvas} with a
 * title, axis labels and a framed plot area that the subclass fills.
 */
abstract class AxesChart {

    static final int WIDTH = 960;
    static final int HEIGHT = 600;
    static final int LEFT = 90;
    static final int RIGHT = 220;
    static final int TOP = 50;
    static final int BOTTOM = 70;
    static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
        new Color(0xbcbd22), new Color(0x17becf)};

    final String title;
    final String xLabel;
    final String yLabel;

    AxesChart(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    /** Draws into the plot area [LEFT, WIDTH-RIGHT] × [TOP, HEIGHT-BOTTOM]. */
    abstract void drawPlot(Graphics2D g);

    public void writePng(Path file) throws IOException {
        ChartCanvas.writePng(file, WIDTH, HEIGHT, this::draw);
    }

    private void draw(Graphics2D g) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString(title, LEFT, 30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        g.drawString(xLabel, LEFT + (plotWidth() - g.getFontMetrics().stringWidth(xLabel)) / 2, HEIGHT - 20);
        Graphics2D rotated = (Graphics2D) g.create();
        rotated.rotate(-Math.PI / 2);
        rotated.drawString(yLabel, -(TOP + (plotHeight() + rotated.getFontMetrics().stringWidth(yLabel)) / 2), 22);
        rotated.dispose();
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        drawPlot(g);
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1f));
        g.drawRect(LEFT, TOP, plotWidth(), plotHeight());
    }

    static int plotWidth() {
        return WIDTH - LEFT - RIGHT;
    }

    static int plotHeight() {
        return HEIGHT - TOP - BOTTOM;
    }

    static void legend(Graphics2D g, int row, Color color, String label) {
        int x = WIDTH - RIGHT + 15;
        int y = TOP + 10 + row * 20;
        g.setColor(color);
        g.fillRect(x, y, 14, 10);
        g.setColor(Color.BLACK);
        g.drawString(label, x + 20, y + 10);
    }

    static String tickLabel(double v) {
        if (v == 0) {
            return "0";
        }
        double a = Math.abs(v);
        if (a >= 1e5 || a < 1e-3) {
            return String.format("%.0e", v);
        }
        return a >= 100 ? String.format("%.0f", v) : new java.math.BigDecimal(v).round(new java.math.MathContext(3))
                .stripTrailingZeros().toPlainString();
    }
}
