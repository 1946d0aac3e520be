package io.loadwise.capacity.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PairedBarChartTest {

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
        assertEquals(PairedBarChart.WIDTH, image.getWidth());
    }

    @Test
    void eachPanelIsScaledToItsOwnLargestValue() {
        chart.add("big", 1000, 1).add("half", 500, 2);
        Drawn image = Drawn.of(chart.chart(), PairedBarChart.WIDTH, 100 + 2 * 24);
        List<Integer> left = barLengths(image, PairedBarChart.LEFT_COLOUR, image.area(0));
        List<Integer> right = barLengths(image, PairedBarChart.RIGHT_COLOUR, image.area(1));
        assertEquals(2, left.size(), left.toString());
        assertEquals(2, right.size(), right.toString());
        assertEquals(left.get(0) / 2.0, left.get(1), 2, "half the value, half the bar: " + left);
        assertEquals(right.get(1) / 2.0, right.get(0), 2, "1 of 2 on the right: " + right);
        assertEquals(left.get(0), right.get(1), 2, "each panel's largest bar is as long as the other's");
    }

    @Test
    void aZeroValueDrawsNoBar() {
        chart.add("none", 0, 0);
        Drawn image = Drawn.of(chart.chart(), PairedBarChart.WIDTH, 124);
        assertTrue(!Pixels.has(image.image(), PairedBarChart.LEFT_COLOUR)
                && !Pixels.has(image.image(), PairedBarChart.RIGHT_COLOUR), "no bar for zero");
    }

    /** Each bar's length in pixels, top to bottom: the runs of rows holding {@code colour}, each run's longest row. */
    private static List<Integer> barLengths(Drawn image, Color colour, Rectangle area) {
        List<Integer> lengths = new ArrayList<>();
        int current = 0;
        for (int y = area.y; y < area.y + area.height; y++) {
            int n = image.count(colour, new Rectangle(area.x - 1, y, area.width + 2, 1));
            if (n > 0) {
                current = Math.max(current, n);
            } else if (current > 0) {
                lengths.add(current);
                current = 0;
            }
        }
        if (current > 0) {
            lengths.add(current);
        }
        return lengths;
    }
}
