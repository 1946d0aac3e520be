package io.loadwise.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.capacity.chart.TraceChart;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TracePlotTest {

    @TempDir
    Path dir;

    @Test
    void plotsSelectionsOfATraceWithAgentColumnsSomeOfThemEmpty() throws IOException {
        Path csv = dir.resolve("trace.csv");
        Files.writeString(csv, """
                epochMillis,throughput,failed,activeConnections,VCN1,VCN2,VCN1 heap%,VCN1 threads%,VCN1 jdbc%,VCN2 heap%,VCN2 threads%,VCN2 jdbc%
                1000,0.00,0.00,0.00,0,0,,,,,,
                2000,10.00,0.00,2.00,5,5,20.0,8.3,,21.0,0.0,
                3000,30.00,4.00,6.00,9,3,45.5,50.0,30.0,99.1,100.0,80.0
                4000,25.00,1.00,5.00,7,6,,,,,,
                """);
        Path png = dir.resolve("trace.png");
        TracePlot.write(csv, png, "heap x http-round-robin");
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(TraceChart.WIDTH, image.getWidth());
        assertTrue(hasColour(image, TracePlot.NODE_COLORS[0]), "VCN1's selections are drawn");
        assertTrue(hasColour(image, TracePlot.NODE_COLORS[1]), "VCN2's selections are drawn");
        assertFalse(hasColour(image, TracePlot.NODE_COLORS[2]), "agent columns are not taken for a third node");
        assertTrue(hasColour(image, TracePlot.LOAD_COLORS[0]), "VCN2's (the last node's) heap % is drawn below");
        assertTrue(hasColour(image, TracePlot.LOAD_COLORS[2]), "and its JDBC %");
    }

    @Test
    void aTraceWithoutAgentFiguresHasNoLoadPanel() throws IOException {
        Path csv = dir.resolve("tcp.csv");
        Files.writeString(csv, """
                epochMillis,throughput,failed,activeConnections,VCN1,VCN2,VCN1 heap%,VCN1 threads%,VCN1 jdbc%,VCN2 heap%,VCN2 threads%,VCN2 jdbc%
                1000,0.00,0.00,0.00,0,0,,,,,,
                2000,10.00,0.00,2.00,5,5,,,,,,
                3000,30.00,4.00,6.00,9,3,,,,,,
                """);
        Path png = dir.resolve("tcp.png");
        TracePlot.write(csv, png, "baseline x tcp-random");
        BufferedImage image = ImageIO.read(png.toFile());
        assertFalse(hasColour(image, TracePlot.LOAD_COLORS[0]), "no agent figures, no load lines");
        assertTrue(hasColour(image, TracePlot.NODE_COLORS[0]));
    }

    private static boolean hasColour(BufferedImage image, Color colour) {
        for (int x = 0; x < image.getWidth(); x++) {
            for (int y = 0; y < image.getHeight(); y++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == (colour.getRGB() & 0xFFFFFF)) {
                    return true;
                }
            }
        }
        return false;
    }
}
