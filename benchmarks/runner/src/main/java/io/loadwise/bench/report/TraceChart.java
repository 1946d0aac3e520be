package io.loadwise.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A cell's per-second trace as lines: each node's selections per second and the dispatcher's failed
 * requests per second (dashed), like the seed's selection and failure traces (figures 49-63). Reads the
 * trace CSV the sweep wrote.
 */
final class TraceChart {

    static final Color[] NODE_COLORS = {new Color(40, 110, 200), new Color(40, 160, 80), new Color(230, 140, 20)};
    static final int WIDTH = 760;
    private static final int HEIGHT = 320;
    private static final int LEFT = 60;
    private static final int RIGHT = 140;
    private static final int TOP = 40;
    private static final int BOTTOM = 40;

    private TraceChart() {
    }

    static void write(Path csv, Path png, String title) throws IOException {
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        if (lines.size() < 3) {
            return;
        }
        String[] header = lines.get(0).split(",");
        List<double[]> rows = new ArrayList<>();
        for (String line : lines.subList(2, lines.size())) { // the first point holds the totals before the run
            rows.add(Arrays.stream(line.split(",", -1))
                    .mapToDouble(v -> v.isEmpty() ? Double.NaN : Double.parseDouble(v)).toArray());
        }
        // selections per node come first after the four cluster columns; agent columns ("VCN1 heap%") follow
        int series = (int) Arrays.stream(header).skip(4).takeWhile(h -> !h.contains(" ")).count();
        double max = 1;
        for (double[] r : rows) {
            for (int s = 0; s < series; s++) {
                max = Math.max(max, r[4 + s]);
            }
            max = Math.max(max, r[2]);
        }
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
            g.drawString(title, 10, 20);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            int plotW = WIDTH - LEFT - RIGHT;
            int plotH = HEIGHT - TOP - BOTTOM;
            g.setColor(Color.GRAY);
            g.drawRect(LEFT, TOP, plotW, plotH);
            g.drawString(String.format(Locale.ROOT, "%.0f/s", max), 5, TOP + 10);
            g.drawString("0", LEFT - 15, TOP + plotH);
            g.drawString(rows.size() + " s", LEFT + plotW - 20, TOP + plotH + 15);
            g.drawString("time (s)", LEFT + plotW / 2 - 20, TOP + plotH + 15);
            for (int s = 0; s <= series; s++) {
                boolean failures = s == series;
                int column = failures ? 2 : 4 + s;
                g.setColor(failures ? Color.RED : NODE_COLORS[s % NODE_COLORS.length]);
                g.setStroke(failures ? new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10,
                        new float[] {5, 4}, 0) : new BasicStroke(2));
                for (int i = 1; i < rows.size(); i++) {
                    g.drawLine(x(i - 1, rows.size(), plotW), y(rows.get(i - 1)[column], max, plotH),
                            x(i, rows.size(), plotW), y(rows.get(i)[column], max, plotH));
                }
                g.drawString(failures ? "LB failed/s" : header[4 + s] + " sels/s", LEFT + plotW + 10, TOP + 15 + s * 18);
            }
        } finally {
            g.dispose();
        }
        Files.createDirectories(png.getParent());
        ImageIO.write(image, "png", png.toFile());
    }

    private static int x(int i, int n, int plotW) {
        return LEFT + (int) Math.round(plotW * (double) i / Math.max(1, n - 1));
    }

    private static int y(double v, double max, int plotH) {
        return TOP + plotH - (int) Math.round(plotH * v / max);
    }
}
