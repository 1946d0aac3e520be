package io.loadwise.capacity.chart;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import javax.imageio.ImageIO;

/**
 * The ground every chart draws on: a white RGB image with anti-aliased shapes and text, written as PNG.
 * The charts differ in what they paint, not in how an image is made and saved.
 */
final class ChartCanvas {

    private ChartCanvas() {
    }

    /** Paints a {@code width} × {@code height} image with {@code painter} and writes it to {@code file}, creating its folder. */
    static void writePng(Path file, int width, int height, Consumer<Graphics2D> painter) throws IOException {
        System.setProperty("java.awt.headless", "true"); // a chart is drawn on servers and build machines: no display
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            painter.accept(g);
        } finally {
            g.dispose();
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer available");
        }
    }
}
