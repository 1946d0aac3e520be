package io.loadwise.capacity.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineChartTest {

    @TempDir
    Path dir;

    private final double[] x = {1, 2, 3, 4};

    @Test
    void eachSeriesTakesTheNextColourAndADashedOneKeepsThePreviousColour() throws IOException {
        BufferedImage image = draw(new LineChart("t", "x", "y", false)
                .add("a", x, new double[] {1, 2, 3, 4})
                .addDashed("a'", x, new double[] {2, 3, 4, 5}));
        assertEquals(960, image.getWidth());
        assertEquals(600, image.getHeight());
        assertTrue(Pixels.has(image, AxesChart.PALETTE[0]));
        assertFalse(Pixels.has(image, AxesChart.PALETTE[1]), "the dashed variant is drawn in the first colour");
    }

    @Test
    void pointsAboveTheClipAndNonPositivePointsOnALogAxisAreNotDrawn() throws IOException {
        BufferedImage image = draw(new LineChart("t", "x", "ms (log)", true)
                .add("kept", x, new double[] {1, 10, 100, 1000})
                .add("over the clip", x, new double[] {5000, 6000, 7000, 8000})
                .add("not positive", x, new double[] {0, -1, 0, -5})
                .clipY(1000));
        assertTrue(Pixels.has(image, AxesChart.PALETTE[0]));
        // the legend still names every series: look inside the plot area only
        assertEquals(0, Pixels.count(image, AxesChart.PALETTE[1], AxesChart.LEFT + 1, AxesChart.TOP + 1,
                AxesChart.WIDTH - AxesChart.RIGHT, AxesChart.HEIGHT - AxesChart.BOTTOM));
        assertEquals(0, Pixels.count(image, AxesChart.PALETTE[2], AxesChart.LEFT + 1, AxesChart.TOP + 1,
                AxesChart.WIDTH - AxesChart.RIGHT, AxesChart.HEIGHT - AxesChart.BOTTOM));
    }

    @Test
    void aChartWithNothingFiniteIsStillAnImage() throws IOException {
        BufferedImage image = draw(new LineChart("t", "x", "y", true).add("none", x, new double[] {0, 0, 0, 0}));
        assertEquals(960, image.getWidth());
    }

    private BufferedImage draw(LineChart chart) throws IOException {
        Path png = dir.resolve("line-" + System.nanoTime() + ".png");
        chart.writePng(png);
        return ImageIO.read(png.toFile());
    }
}
