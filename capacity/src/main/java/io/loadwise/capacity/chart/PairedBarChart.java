package io.loadwise.capacity.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Two horizontal bar panels side by side, one row per item and each panel scaled to its own largest
 * value: the benchmark runner's throughput (left) and failed samples (right) per policy, the way seed
 * figures 48, 52, 54, 58 and 61 compare policies. Each bar carries its value as text.
 */
public final class PairedBarChart {

    /** One panel: its heading and the {@link String#format} pattern of the values written beside its bars. */
    public record Panel(String title, String valueFormat) {
    }

    private record Row(String label, double left, double right) {
    }

    private static final int LABEL_WIDTH = 300;
    private static final int PANEL_WIDTH = 330;
    private static final int ROW_HEIGHT = 24;
    private static final int TOP = 60;
    private static final Color LEFT_COLOUR = new Color(70, 120, 190);
    private static final Color RIGHT_COLOUR = new Color(200, 70, 60);

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

    /** The image is as tall as its rows need: 100 pixels of title and headings, 24 per row. */
    public void writePng(Path png) throws IOException {
        int width = LABEL_WIDTH + 2 * PANEL_WIDTH + 40;
        int height = 70 + rows.size() * ROW_HEIGHT + 30;
        ChartCanvas.writePng(png, width, height, this::draw);
    }

    private void draw(Graphics2D g) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, 10, 22);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        double leftMax = Math.max(1e-9, rows.stream().mapToDouble(Row::left).max().orElse(1));
        double rightMax = Math.max(1, rows.stream().mapToDouble(Row::right).max().orElse(1));
        int leftX = LABEL_WIDTH + 10;
        int rightX = LABEL_WIDTH + PANEL_WIDTH + 30;
        g.drawString(left.title(), leftX, TOP - 12);
        g.drawString(right.title(), rightX, TOP - 12);
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            int y = TOP + i * ROW_HEIGHT;
            g.setColor(Color.BLACK);
            g.drawString(row.label(), 8, y + 16);
            drawBar(g, leftX, y, row.left(), leftMax, LEFT_COLOUR, left.valueFormat());
            drawBar(g, rightX, y, row.right(), rightMax, RIGHT_COLOUR, right.valueFormat());
        }
        g.setColor(Color.GRAY);
        g.setStroke(new BasicStroke(1));
        g.drawLine(leftX, TOP - 4, leftX, TOP + rows.size() * ROW_HEIGHT);
        g.drawLine(rightX, TOP - 4, rightX, TOP + rows.size() * ROW_HEIGHT);
    }

    private static void drawBar(Graphics2D g, int x, int y, double value, double max, Color color, String format) {
        int length = (int) Math.round((PANEL_WIDTH - 70) * value / max);
        g.setColor(color);
        g.fillRect(x, y + 4, Math.max(length, value > 0 ? 1 : 0), ROW_HEIGHT - 8);
        g.setColor(Color.BLACK);
        g.drawString(String.format(Locale.ROOT, format, value), x + length + 4, y + 16);
    }
}
