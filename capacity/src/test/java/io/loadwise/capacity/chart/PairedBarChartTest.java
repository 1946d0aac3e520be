package io.loadwise.capacity.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PairedBarChartTest {

    private static final Color LEFT = new Color(70, 120, 190);
    private static final Color RIGHT = new Color(200, 70, 60);

    @TempDir
    Path dir;

    private final PairedBarChart chart = new PairedBarChart("Baseline",
            new PairedBarChart.Panel("Throughput", "%.1f"), new PairedBarChart.Panel("Failed", "%.0f"));

    @Test
    void growsByOneRowPerItemAndWritesIntoAFolderItCreates() throws IOException {
        chart.add("a", 500, 3).add("b", 250, 0).add("c", 0, 9);
        Path png = dir.resolve("plots").resolve("baseline.png");
        chart.writePng(png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(100 + 3 * 24, image.getHeight());
        assertEquals(300 + 2 * 330 + 40, image.getWidth());
    }

    @Test
    void eachPanelIsScaledToItsOwnLargestValue() throws IOException {
        chart.add("big", 1000, 1).add("half", 500, 2);
        Path png = dir.resolve("bars.png");
        chart.writePng(png);
        BufferedImage image = ImageIO.read(png.toFile());
        int row0 = 60 + 12;
        int row1 = 60 + 24 + 12;
        int fullLength = 330 - 70;
        // a bar's first pixel column lies under its panel's axis line: one pixel less shows
        assertEquals(fullLength - 1, Pixels.count(image, LEFT, 0, row0, image.getWidth(), row0 + 1), "the largest left bar is full length");
        assertEquals(fullLength / 2 - 1, Pixels.count(image, LEFT, 0, row1, image.getWidth(), row1 + 1), "half the value, half the bar");
        assertEquals(fullLength / 2 - 1, Pixels.count(image, RIGHT, 0, row0, image.getWidth(), row0 + 1), "1 of 2 on the right");
        assertEquals(fullLength - 1, Pixels.count(image, RIGHT, 0, row1, image.getWidth(), row1 + 1));
    }

    @Test
    void aZeroValueDrawsNoBar() throws IOException {
        chart.add("none", 0, 0);
        Path png = dir.resolve("zero.png");
        chart.writePng(png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue(!Pixels.has(image, LEFT) && !Pixels.has(image, RIGHT), "no bar for zero");
    }
}
