package io.loadwise.capacity.chart;

import java.awt.Color;
import java.awt.image.BufferedImage;

/** What the chart tests look for in an image: whether any pixel has exactly a given colour. */
final class Pixels {

    private Pixels() {
    }

    static boolean has(BufferedImage image, Color colour) {
        return count(image, colour, 0, 0, image.getWidth(), image.getHeight()) > 0;
    }

    /** Pixels of {@code colour} inside the rectangle [x0, x1) × [y0, y1). */
    static int count(BufferedImage image, Color colour, int x0, int y0, int x1, int y1) {
        int rgb = colour.getRGB() & 0xFFFFFF;
        int n = 0;
        for (int x = x0; x < x1; x++) {
            for (int y = y0; y < y1; y++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == rgb) {
                    n++;
                }
            }
        }
        return n;
    }
}
