package io.loadwise.capacity.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BarChartTest {

    @TempDir
    Path dir;

    private final BarChart chart = new BarChart("Per-node utilisation", "policy", "utilisation", "node")
            .add("round-robin", new double[] {0.5, 1.0})
            .add("least-connections", new double[] {0.25, 2.0});

    @Test
    void barsAreGroupedByPolicyAndColouredByNodeOnAZeroToOneScale() {
        JFreeChart drawn = chart.chart();
        assertEquals(1.0, drawn.getCategoryPlot().getDataset().getValue("node2", "least-connections").doubleValue(),
                "2.0 is drawn as 1.0, not past the frame");
        Drawn image = Drawn.of(drawn, BarChart.WIDTH, BarChart.HEIGHT);
        Rectangle area = image.area(-1);
        int full = area.height;
        // the tallest column of each colour in each half (group) of the data area
        Rectangle left = new Rectangle(area.x, area.y, area.width / 2, area.height);
        Rectangle right = new Rectangle(area.x + area.width / 2, area.y, area.width / 2, area.height);
        assertEquals(full / 2.0, tallest(image, 0, left), 2, "0.5 fills half the height");
        assertEquals(full / 4.0, tallest(image, 0, right), 2, "0.25 a quarter");
        assertEquals(full, tallest(image, 1, right), 2, "1.0 the whole height");
    }

    @Test
    void writesAPng() throws IOException {
        Path png = dir.resolve("plots/utilisation.png");
        chart.writePng(png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(960, image.getWidth());
        assertTrue(Pixels.has(image, Charts.PALETTE[1]));
    }

    /** The most pixels of palette colour {@code index} in one column of {@code r}: the bar's height. */
    private static int tallest(Drawn image, int index, Rectangle r) {
        int best = 0;
        for (int x = r.x; x < r.x + r.width; x++) {
            best = Math.max(best, image.count(Charts.PALETTE[index], new Rectangle(x, r.y - 1, 1, r.height + 2)));
        }
        return best;
    }
}
