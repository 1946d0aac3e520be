package io.loadwise.capacity.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.util.ArrayList;
import java.util.List;

/**
 * X/Y line chart with markers, linear x axis and linear or logarithmic y axis. Non-finite points
 * (unstable models, empty runs) are skipped and break the line.
 */
public final class LineChart extends AxesChart {

    private record Series(String name, double[] x, double[] y, boolean dashed, int color) {
    }

    private final boolean logY;
    private final List<Series> series = new ArrayList<>();
    private Double yMaxClip;

    public LineChart(String title, String xLabel, String yLabel, boolean logY) {
        super(title, xLabel, yLabel);
        this.logY = logY;
    }

    public LineChart add(String name, double[] x, double[] y) {
        series.add(new Series(name, x.clone(), y.clone(), false, series.size()));
        return this;
    }

    /** A dashed series in the colour of the previous one (a model variant of the same case). */
    public LineChart addDashed(String name, double[] x, double[] y) {
        int color = series.isEmpty() ? 0 : series.get(series.size() - 1).color;
        series.add(new Series(name, x.clone(), y.clone(), true, color));
        return this;
    }

    /** Points above this value are not drawn (e.g. response times near saturation). */
    public LineChart clipY(double max) {
        yMaxClip = max;
        return this;
    }

    @Override
    void drawPlot(Graphics2D g) {
        double xMin = Double.POSITIVE_INFINITY, xMax = Double.NEGATIVE_INFINITY;
        double yMin = Double.POSITIVE_INFINITY, yMax = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (int i = 0; i < s.x.length; i++) {
                if (drawable(s.y[i])) {
                    xMin = Math.min(xMin, s.x[i]);
                    xMax = Math.max(xMax, s.x[i]);
                    yMin = Math.min(yMin, s.y[i]);
                    yMax = Math.max(yMax, s.y[i]);
                }
            }
        }
        if (xMin > xMax) {
            g.drawString("no finite data", LEFT + 20, TOP + 30);
            return;
        }
        if (xMin == xMax) {
            xMin -= 1;
            xMax += 1;
        }
        if (logY) {
            yMin = niceLogBound(yMin, false);
            yMax = niceLogBound(yMax, true);
            if (yMin >= yMax) {
                yMax = yMin * 10;
            }
        } else {
            yMin = Math.min(0, yMin);
            yMax = yMax == yMin ? yMin + 1 : yMax * 1.05;
        }
        Axis xAxis = new Axis(xMin, xMax, false);
        Axis yAxis = new Axis(yMin, yMax, logY);
        drawGrid(g, xAxis, yAxis);
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            Color color = PALETTE[s.color % PALETTE.length];
            g.setColor(color);
            g.setStroke(s.dashed ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f,
                    new float[] {8f, 5f}, 0f) : new BasicStroke(2f));
            Path2D.Double path = new Path2D.Double();
            boolean inRun = false;
            for (int i = 0; i < s.x.length; i++) {
                if (!drawable(s.y[i])) {
                    inRun = false;
                    continue;
                }
                double px = LEFT + xAxis.fraction(s.x[i]) * plotWidth();
                double py = TOP + plotHeight() - yAxis.fraction(s.y[i]) * plotHeight();
                if (inRun) {
                    path.lineTo(px, py);
                } else {
                    path.moveTo(px, py);
                }
                inRun = true;
                if (s.x.length <= 40) {
                    g.fill(new Ellipse2D.Double(px - 3.5, py - 3.5, 7, 7));
                }
            }
            g.draw(path);
            lineLegend(g, k, color, s.name);
        }
    }

    /** The 1-2-5 value at or below (or above) v, so a log axis does not waste a decade. */
    private static double niceLogBound(double v, boolean up) {
        double decade = Math.pow(10, Math.floor(Math.log10(v)));
        double[] steps = {1, 2, 5, 10};
        if (up) {
            for (double st : steps) {
                if (st * decade >= v * (1 - 1e-9)) {
                    return st * decade;
                }
            }
            return 10 * decade;
        }
        for (int i = steps.length - 1; i >= 0; i--) {
            if (steps[i] * decade <= v * (1 + 1e-9)) {
                return steps[i] * decade;
            }
        }
        return decade;
    }

    private void lineLegend(Graphics2D g, int row, Color color, String label) {
        int x = WIDTH - RIGHT + 15;
        int y = TOP + 10 + row * 20;
        g.setColor(color);
        g.draw(new Line2D.Double(x, y + 5, x + 28, y + 5));
        Stroke keep = g.getStroke();
        g.setStroke(new BasicStroke(1f));
        g.setColor(Color.BLACK);
        g.drawString(label, x + 34, y + 10);
        g.setStroke(keep);
    }

    private boolean drawable(double y) {
        return Double.isFinite(y) && (!logY || y > 0) && (yMaxClip == null || y <= yMaxClip);
    }

    private static void drawGrid(Graphics2D g, Axis x, Axis y) {
        g.setStroke(new BasicStroke(1f));
        for (double t : x.ticks()) {
            int px = LEFT + (int) Math.round(x.fraction(t) * plotWidth());
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(px, TOP, px, TOP + plotHeight());
            g.setColor(Color.BLACK);
            String label = tickLabel(t);
            g.drawString(label, px - g.getFontMetrics().stringWidth(label) / 2, TOP + plotHeight() + 18);
        }
        for (double t : y.ticks()) {
            int py = TOP + plotHeight() - (int) Math.round(y.fraction(t) * plotHeight());
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(LEFT, py, LEFT + plotWidth(), py);
            g.setColor(Color.BLACK);
            String label = tickLabel(t);
            g.drawString(label, LEFT - 8 - g.getFontMetrics().stringWidth(label), py + 4);
        }
    }

    /** Maps values to [0, 1] and picks round tick values. */
    private record Axis(double min, double max, boolean log) {
        double fraction(double v) {
            return log ? (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))
                    : (v - min) / (max - min);
        }

        List<Double> ticks() {
            List<Double> ticks = new ArrayList<>();
            if (log) {
                boolean fewDecades = max / min <= 1000;
                for (double decade = Math.pow(10, Math.floor(Math.log10(min))); decade <= max * 1.0001; decade *= 10) {
                    for (double st : fewDecades ? new double[] {1, 2, 5} : new double[] {1}) {
                        double t = st * decade;
                        if (t >= min * 0.9999 && t <= max * 1.0001) {
                            ticks.add(t);
                        }
                    }
                }
                return ticks;
            }
            double raw = (max - min) / 8;
            double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
            double step = raw / magnitude < 2 ? 2 * magnitude : raw / magnitude < 5 ? 5 * magnitude : 10 * magnitude;
            for (double t = Math.ceil(min / step) * step; t <= max + step * 1e-9; t += step) {
                ticks.add(Math.abs(t) < step * 1e-9 ? 0 : t);
            }
            return ticks;
        }
    }
}
