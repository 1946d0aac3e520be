package io.loadwise.capacity.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BarChartTest {

    @TempDir
    Path dir;

    @Test
    void barsAreGroupedByPolicyAndColouredByNodeOnAZeroToOneScale() throws IOException {
        Path png = dir.resolve("utilisation.png");
        new BarChart("Per-node utilisation", "policy", "utilisation", "node")
                .add("round-robin", new double[] {0.5, 1.0})
                .add("least-connections", new double[] {0.25, 2.0})
                .writePng(png);
        BufferedImage image = ImageIO.read(png.toFile());
        int plotHeight = AxesChart.HEIGHT - AxesChart.TOP - AxesChart.BOTTOM;
        int bottom = AxesChart.TOP + plotHeight - 1;
        int groupWidth = (AxesChart.WIDTH - AxesChart.LEFT - AxesChart.RIGHT) / 2;
        int firstBarX = AxesChart.LEFT + 10 + 2;
        assertEquals(plotHeight / 2, column(image, firstBarX, bottom, 0), "0.5 fills half the height");
        assertEquals(plotHeight / 4, column(image, firstBarX + groupWidth, bottom, 0), "0.25 a quarter");
        int secondBarX = firstBarX + (groupWidth - 20) / 2;
        // the frame's top line covers the bar's top pixel
        assertEquals(plotHeight - 1, column(image, secondBarX + groupWidth, bottom, 1), "2.0 is drawn as 1.0, not past the frame");
        assertTrue(Pixels.has(image, AxesChart.PALETTE[1]));
    }

    /** Height of the bar of colour {@code index} standing on {@code bottom} at {@code x}. */
    private static int column(BufferedImage image, int x, int bottom, int index) {
        return Pixels.count(image, AxesChart.PALETTE[index], x, 0, x + 1, bottom + 1);
    }
}
