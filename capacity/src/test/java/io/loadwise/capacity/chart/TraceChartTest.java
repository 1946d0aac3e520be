package io.loadwise.capacity.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceChartTest {

    private static final Color BLUE = new Color(40, 110, 200);
    private static final Color GREEN = new Color(40, 160, 80);
    private static final Color PURPLE = new Color(140, 60, 170);
    private static final double NaN = Double.NaN;

    @TempDir
    Path dir;

    @Test
    void panelsStackUnderTheTitle() throws IOException {
        TraceChart.Line line = new TraceChart.Line(new double[] {1, 2, 3}, BLUE, false, "VCN1");
        BufferedImage one = draw(new TraceChart("one").panel(240, 3, "3/s", List.of(line)));
        BufferedImage two = draw(new TraceChart("two").panel(240, 3, "3/s", List.of(line))
                .panel(160, 100, "100 %", List.of(new TraceChart.Line(new double[] {50, 60, 70}, PURPLE, false, "heap%"))));
        assertEquals(TraceChart.WIDTH, one.getWidth());
        assertEquals(40 + 240 + 40, one.getHeight());
        assertEquals(40 + 240 + 40 + 160 + 40, two.getHeight());
        assertTrue(Pixels.has(two, PURPLE), "the second panel's line");
        assertFalse(Pixels.has(one, PURPLE));
    }

    @Test
    void aSecondWithoutAValueLeavesAGapInsteadOfALine() throws IOException {
        // GREEN has no two neighbouring values: nothing to join; BLUE has two, one segment
        BufferedImage image = draw(new TraceChart("gaps").panel(240, 10, "10/s", List.of(
                new TraceChart.Line(new double[] {5, NaN, 5, NaN, 5}, GREEN, false, "isolated"),
                new TraceChart.Line(new double[] {NaN, NaN, NaN, 4, 6}, BLUE, false, "last two"))));
        int plotRight = TraceChart.WIDTH - 150;
        int plotLeft = 60;
        // the legend, right of the plot, is written in the line's colour: look inside the plot only
        assertEquals(0, Pixels.count(image, GREEN, plotLeft, 40, plotRight, 40 + 240), "isolated points draw no line");
        int fourth = plotLeft + (plotRight - plotLeft) * 3 / 4;
        assertEquals(0, Pixels.count(image, BLUE, plotLeft, 40, fourth - 2, 40 + 240), "nothing before the fourth second");
        assertTrue(Pixels.count(image, BLUE, fourth, 40, plotRight, 40 + 240) > 0, "a segment from the fourth to the fifth");
    }

    @Test
    void valuesAboveThePanelsTopAreDrawnAtTheTop() throws IOException {
        BufferedImage image = draw(new TraceChart("clip").panel(100, 10, "10/s", List.of(
                new TraceChart.Line(new double[] {50, 50}, BLUE, false, "over"))));
        assertTrue(Pixels.count(image, BLUE, 60, 40, 60 + 100, 42) > 0, "along the top edge");
        assertEquals(0, Pixels.count(image, BLUE, 0, 0, 60, 40), "not above the panel");
    }

    private BufferedImage draw(TraceChart chart) throws IOException {
        Path png = dir.resolve("trace-" + System.nanoTime() + ".png");
        chart.writePng(png);
        return ImageIO.read(png.toFile());
    }
}
