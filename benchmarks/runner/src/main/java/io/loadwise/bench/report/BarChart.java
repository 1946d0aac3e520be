package io.loadwise.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Two horizontal bar panels side by side, one bar per policy: throughput (left) and failed samples
 * (right), as seed figures 48, 52, 54, 58 and 61 compare policies. Java2D, written as PNG.
 */
final class BarChart {

    record Bar(String label, double left, double right, boolean control) {
    }

    private static final int LABEL_WIDTH = 300;
    private static final int PANEL_WIDTH = 330;
    private static final int ROW_HEIGHT = 24;

    private BarChart() {
    }

    static void write(Path png, String title, String leftTitle, String rightTitle, List<Bar> bars) throws IOException {
        int width = LABEL_WIDTH + 2 * PANEL_WIDTH + 40;
        int height = 70 + bars.size() * ROW_HEIGHT + 30;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
            g.drawString(title, 10, 22);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            double leftMax = Math.max(1e-9, bars.stream().mapToDouble(Bar::left).max().orElse(1));
            double rightMax = Math.max(1, bars.stream().mapToDouble(Bar::right).max().orElse(1));
            int top = 60;
            g.drawString(leftTitle, LABEL_WIDTH + 10, top - 12);
            g.drawString(rightTitle, LABEL_WIDTH + PANEL_WIDTH + 30, top - 12);
            for (int i = 0; i < bars.size(); i++) {
                Bar bar = bars.get(i);
                int y = top + i * ROW_HEIGHT;
                g.setColor(Color.BLACK);
                g.drawString(bar.label() + (bar.control() ? " (control)" : ""), 8, y + 16);
                drawBar(g, LABEL_WIDTH + 10, y, bar.left(), leftMax, new Color(70, 120, 190), "%.1f");
                drawBar(g, LABEL_WIDTH + PANEL_WIDTH + 30, y, bar.right(), rightMax, new Color(200, 70, 60), "%.0f");
            }
            g.setColor(Color.GRAY);
            g.setStroke(new BasicStroke(1));
            g.drawLine(LABEL_WIDTH + 10, top - 4, LABEL_WIDTH + 10, top + bars.size() * ROW_HEIGHT);
            g.drawLine(LABEL_WIDTH + PANEL_WIDTH + 30, top - 4, LABEL_WIDTH + PANEL_WIDTH + 30,
                    top + bars.size() * ROW_HEIGHT);
        } finally {
            g.dispose();
        }
        Files.createDirectories(png.getParent());
        ImageIO.write(image, "png", png.toFile());
    }

    private static void drawBar(Graphics2D g, int x, int y, double value, double max, Color color, String format) {
        int length = (int) Math.round((PANEL_WIDTH - 70) * value / max);
        g.setColor(color);
        g.fillRect(x, y + 4, Math.max(length, value > 0 ? 1 : 0), ROW_HEIGHT - 8);
        g.setColor(Color.BLACK);
        g.drawString(String.format(Locale.ROOT, format, value), x + length + 4, y + 16);
    }
}
