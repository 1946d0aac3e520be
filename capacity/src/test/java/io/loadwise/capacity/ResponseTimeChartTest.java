package io.loadwise.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResponseTimeChartTest {

    // the first three colours of the charts' palette: one per node count
    private static final int BLUE = 0x1f77b4;
    private static final int RED = 0xd62728;
    private static final int GREEN = 0x2ca02c;

    @TempDir
    Path dir;

    @Test
    void drawsOneCurveColourPerNodeCount() throws IOException {
        Path png = dir.resolve("plots").resolve("capacity.png");
        ResponseTimeChart.write(104.13, List.of(1, 2), png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(960, image.getWidth());
        assertEquals(600, image.getHeight());
        assertTrue(hasColour(image, BLUE), "M/M/1");
        assertTrue(hasColour(image, RED), "M/M/2 and its dashed (M/M/1)^2");
        assertFalse(hasColour(image, GREEN), "no third node count, no third colour");
    }

    private static boolean hasColour(BufferedImage image, int rgb) {
        for (int x = 0; x < image.getWidth(); x++) {
            for (int y = 0; y < image.getHeight(); y++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == rgb) {
                    return true;
                }
            }
        }
        return false;
    }
}
