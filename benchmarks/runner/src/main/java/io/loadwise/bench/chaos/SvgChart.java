package io.loadwise.bench.chaos;

import java.util.List;
import java.util.Locale;

/**
 * A small hand-written SVG line chart: panels stacked one above the other over one x axis, each with one
 * series as a {@code <polyline>}, its name, and its y range from 0 to its largest value. No chart library:
 * the soak's plot is a few hundred points, and SVG text diffs and embeds in docs/performance.md.
 */
final class SvgChart {

    static final int WIDTH = 760;
    static final int LEFT = 70;
    static final int RIGHT = 20;
    static final int TOP = 30;
    static final int PANEL = 120;
    static final int GAP = 40;
    static final String[] COLORS = {"#2868c8", "#28a050", "#e68c14", "#c83232"};

    /** One panel's series: its name (with the unit), x values and y values, the same length; NaN y is a gap. */
    record Series(String name, double[] x, double[] y) {
        Series {
            if (x.length != y.length) {
                throw new IllegalArgumentException(name + ": " + x.length + " x values but " + y.length + " y values");
            }
        }
    }

    private SvgChart() {
    }

    /** The top of panel {@code i}'s plot area. */
    static int panelTop(int i) {
        return TOP + i * (PANEL + GAP);
    }

    static String svg(String title, String xLabel, List<Series> panels) {
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = Double.NEGATIVE_INFINITY;
        for (Series s : panels) {
            for (double x : s.x()) {
                xMin = Math.min(xMin, x);
                xMax = Math.max(xMax, x);
            }
        }
        if (xMin > xMax) {
            xMin = 0;
            xMax = 1;
        } else if (xMin == xMax) {
            xMax = xMin + 1;
        }
        int height = panelTop(panels.size()) - GAP + 40;
        int plotWidth = WIDTH - LEFT - RIGHT;
        StringBuilder b = new StringBuilder();
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n", WIDTH, height, WIDTH, height));
        b.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, height));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"14\" font-weight=\"bold\">%s</text>\n",
                LEFT, escape(title)));
        for (int i = 0; i < panels.size(); i++) {
            Series s = panels.get(i);
            int top = panelTop(i);
            double yMax = 0;
            for (double y : s.y()) {
                if (!Double.isNaN(y)) {
                    yMax = Math.max(yMax, y);
                }
            }
            if (yMax == 0) {
                yMax = 1;
            }
            b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
                    + " stroke=\"#999\"/>\n", LEFT, top, plotWidth, PANEL));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>\n", LEFT + 4, top - 4, escape(s.name())));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", LEFT - 4,
                    top + 10, number(yMax)));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n", LEFT - 4,
                    top + PANEL));
            StringBuilder points = new StringBuilder();
            for (int k = 0; k < s.x().length; k++) {
                if (Double.isNaN(s.y()[k])) {
                    continue;
                }
                double px = LEFT + (s.x()[k] - xMin) / (xMax - xMin) * plotWidth;
                double py = top + PANEL - s.y()[k] / yMax * PANEL;
                points.append(points.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, "%.1f,%.1f", px, py));
            }
            b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>\n",
                    COLORS[i % COLORS.length], points));
        }
        int axis = panelTop(panels.size()) - GAP + 16;
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>\n", LEFT, axis, number(xMin)));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", WIDTH - RIGHT, axis,
                number(xMax)));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                LEFT + plotWidth / 2, axis, escape(xLabel)));
        b.append("</svg>\n");
        return b.toString();
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e12 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
