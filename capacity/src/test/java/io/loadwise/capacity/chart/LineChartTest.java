package io.loadwise.capacity.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.BasicStroke;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineChartTest {

    @TempDir
    Path dir;

    private final double[] x = {1, 2, 3, 4};

    @Test
    void eachSeriesTakesTheNextColourAndADashedOneKeepsThePreviousColour() throws IOException {
        LineChart chart = new LineChart("t", "x", "y", false)
                .add("a", x, new double[] {1, 2, 3, 4})
                .addDashed("a'", x, new double[] {2, 3, 4, 5})
                .add("b", x, new double[] {3, 4, 5, 6});
        XYPlot plot = chart.chart().getXYPlot();
        assertEquals(Charts.PALETTE[0], plot.getRenderer().getSeriesPaint(0));
        assertEquals(Charts.PALETTE[0], plot.getRenderer().getSeriesPaint(1), "the dashed variant keeps its colour");
        assertEquals(Charts.PALETTE[2], plot.getRenderer().getSeriesPaint(2), "a series' colour is its position's");
        assertTrue(((BasicStroke) plot.getRenderer().getSeriesStroke(1)).getDashArray() != null);
        assertEquals(null, ((BasicStroke) plot.getRenderer().getSeriesStroke(0)).getDashArray());
        BufferedImage image = draw(chart);
        assertEquals(960, image.getWidth());
        assertEquals(600, image.getHeight());
        assertTrue(Pixels.has(image, Charts.PALETTE[0]));
        assertFalse(Pixels.has(image, Charts.PALETTE[1]));
        assertTrue(Pixels.has(image, Charts.PALETTE[2]));
    }

    @Test
    void pointsAboveTheClipAndNonPositivePointsOnALogAxisAreNotDrawn() {
        LineChart chart = new LineChart("t", "x", "ms (log)", true)
                .add("kept", x, new double[] {1, 10, 100, 1000})
                .add("over the clip", x, new double[] {5000, 6000, 7000, 8000})
                .add("not positive", x, new double[] {0, -1, 0, -5})
                .add("some", x, new double[] {0, 5, Double.NaN, 2000})
                .clipY(1000);
        JFreeChart drawn = chart.chart();
        XYDataset data = drawn.getXYPlot().getDataset();
        for (int i = 0; i < 4; i++) {
            assertTrue(Double.isFinite(data.getYValue(0, i)));
            assertTrue(Double.isNaN(data.getYValue(1, i)), "over the clip");
            assertTrue(Double.isNaN(data.getYValue(2, i)), "not positive on a log axis");
        }
        assertEquals(5, data.getYValue(3, 1));
        assertTrue(Double.isNaN(data.getYValue(3, 0)) && Double.isNaN(data.getYValue(3, 2))
                && Double.isNaN(data.getYValue(3, 3)));
        Drawn image = Drawn.of(drawn, LineChart.WIDTH, LineChart.HEIGHT);
        // the legend still names every series: look inside the data area only
        assertTrue(image.count(Charts.PALETTE[0], image.area(-1)) > 0);
        assertEquals(0, image.count(Charts.PALETTE[1], image.area(-1)));
        assertEquals(0, image.count(Charts.PALETTE[2], image.area(-1)));
    }

    @Test
    void aChartWithNothingFiniteIsStillAnImage() throws IOException {
        LineChart chart = new LineChart("t", "x", "y", true).add("none", x, new double[] {0, 0, 0, 0});
        assertEquals(0, chart.chart().getXYPlot().getDataset().getSeriesCount(), "the no-data message instead");
        assertEquals(960, draw(chart).getWidth());
    }

    private BufferedImage draw(LineChart chart) throws IOException {
        Path png = dir.resolve("line-" + System.nanoTime() + ".png");
        chart.writePng(png);
        return ImageIO.read(png.toFile());
    }
}
