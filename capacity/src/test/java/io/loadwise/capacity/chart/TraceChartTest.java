package io.loadwise.capacity.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
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
        TraceChart two = new TraceChart("two").panel(240, 3, "3/s", List.of(line))
                .panel(160, 100, "100 %", List.of(new TraceChart.Line(new double[] {50, 60, 70}, PURPLE, false, "heap%")));
        assertEquals(TraceChart.WIDTH, one.getWidth());
        assertEquals(40 + 240 + 40, one.getHeight());
        assertEquals(40 + 240 + 40 + 160 + 40, draw(two).getHeight());
        Drawn drawn = Drawn.of(two.chart(), TraceChart.WIDTH, 520);
        assertTrue(drawn.count(PURPLE, drawn.area(1)) > 0, "the second panel's line");
        assertEquals(0, drawn.count(PURPLE, drawn.area(0)), "not in the first panel");
        assertTrue(drawn.area(1).y > drawn.area(0).y + drawn.area(0).height, "the second panel under the first");
        assertFalse(Pixels.has(one, PURPLE));
    }

    @Test
    void aSecondWithoutAValueLeavesAGapInsteadOfALine() {
        // GREEN has no two neighbouring values: nothing to join; BLUE has two, one segment
        Drawn image = Drawn.of(new TraceChart("gaps").panel(240, 10, "10/s", List.of(
                new TraceChart.Line(new double[] {5, NaN, 5, NaN, 5}, GREEN, false, "isolated"),
                new TraceChart.Line(new double[] {NaN, NaN, NaN, 4, 6}, BLUE, false, "last two"))).chart(),
                TraceChart.WIDTH, 320);
        Rectangle area = image.area(0);
        assertEquals(0, image.count(GREEN, area), "isolated points draw no line");
        int fourth = area.x + area.width * 3 / 4;
        assertEquals(0, image.count(BLUE, new Rectangle(area.x, area.y, fourth - 2 - area.x, area.height)),
                "nothing before the fourth second");
        assertTrue(image.count(BLUE, new Rectangle(fourth, area.y, area.x + area.width - fourth, area.height)) > 0,
                "a segment from the fourth to the fifth");
    }

    @Test
    void valuesAboveThePanelsTopAreDrawnAtTheTop() {
        JFreeChart chart = new TraceChart("clip").panel(100, 10, "10/s", List.of(
                new TraceChart.Line(new double[] {50, 4}, BLUE, false, "over"))).chart();
        XYPlot panel = (XYPlot) ((CombinedDomainXYPlot) chart.getPlot()).getSubplots().get(0);
        assertEquals(10, panel.getDataset().getYValue(0, 0), "50 drawn at the top, 10");
        assertEquals(4, panel.getDataset().getYValue(0, 1));
        assertEquals(10, panel.getRangeAxis().getUpperBound());
        assertEquals("over", chart.getLegend().getSources()[0].getLegendItems().get(0).getLabel());
    }

    @Test
    void aStepOtherThanASecondScalesTheTimeAxis() {
        JFreeChart chart = new TraceChart("every 10 s", 1.0 / 6, "time (min)").panel(100, 10, "MB", List.of(
                new TraceChart.Line(new double[] {1, 2, 3, 4, 5, 6, 7}, BLUE, false, "rss"))).chart();
        CombinedDomainXYPlot plot = (CombinedDomainXYPlot) chart.getPlot();
        assertEquals("time (min)", plot.getDomainAxis().getLabel());
        assertEquals(1.0, plot.getDomainAxis().getUpperBound(), 1e-9, "7 samples 10 s apart: one minute");
        XYPlot panel = (XYPlot) plot.getSubplots().get(0);
        assertEquals(0.5, panel.getDataset().getXValue(0, 3), 1e-9);
    }

    private BufferedImage draw(TraceChart chart) throws IOException {
        Path png = dir.resolve("trace-" + System.nanoTime() + ".png");
        chart.writePng(png);
        return ImageIO.read(png.toFile());
    }
}
