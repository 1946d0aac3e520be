package io.loadwise.capacity.chart;

import java.awt.Rectangle;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import org.jfree.chart.ChartRenderingInfo;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotRenderingInfo;

/** A chart drawn as the PNG writer draws it, with where JFreeChart put each plot's data area. */
record Drawn(BufferedImage image, ChartRenderingInfo info) {

    static Drawn of(JFreeChart chart, int width, int height) {
        ChartRenderingInfo info = new ChartRenderingInfo();
        return new Drawn(chart.createBufferedImage(width, height, info), info);
    }

    /** The data area of the chart's plot, or of its {@code subplot}th subplot (-1: the plot itself), inside its frame. */
    Rectangle area(int subplot) {
        PlotRenderingInfo plot = info.getPlotInfo();
        Rectangle2D area = subplot < 0 ? plot.getDataArea() : plot.getSubplotInfo(subplot).getDataArea();
        Rectangle r = area.getBounds();
        return new Rectangle(r.x + 1, r.y + 1, r.width - 2, r.height - 2);
    }

    int count(java.awt.Color colour, Rectangle r) {
        return Pixels.count(image, colour, r.x, r.y, r.x + r.width, r.y + r.height);
    }
}
