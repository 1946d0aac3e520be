package io.loadwise.console.web;

import io.loadwise.dispatcher.control.LatencyHistograms;
import io.loadwise.dispatcher.metrics.LatencyHistogram;
import java.util.Locale;

/**
 * A cluster's request-duration histograms, one bar chart per node, as inline SVG drawn here and styled by
 * console.css (issue 33, item 6). The one chart stack's images (JFreeChart, {@code Charts}) are pictures; this
 * chart is markup instead, so that each bucket's label and count are text the page's styles, its tests and
 * screen readers reach (a table-free description names them all).
 */
final class LatencyBars {

    private static final int BAR = 34;
    private static final int GAP = 4;
    private static final int LEFT = 8;
    private static final int TOP = 18;
    private static final int PLOT = 110;
    private static final int LABEL = 30;

    private LatencyBars() {
    }

    /** The section for {@code cluster}: a figure per node, or a hint when the cluster keeps no histograms. */
    static String section(LatencyHistograms histograms, String cluster) {
        StringBuilder b = new StringBuilder("<section id=\"latency-histograms\"><h2>Request duration per node</h2>");
        for (LatencyHistograms.ClusterSeries series : histograms.clusters()) {
            if (!series.cluster().equals(cluster)) {
                continue;
            }
            b.append("<p class=\"hint\">Requests since the dispatcher started, by how long they took (upper bound of "
                    + "each bucket); the same buckets as <code>loadwise_request_duration_seconds</code>.</p>")
                    .append("<div class=\"histogram-grid\">");
            for (LatencyHistograms.NodeSeries node : series.nodes()) {
                b.append(figure(node.node(), node.histograms().duration()));
            }
            return b.append("</div></section>").toString();
        }
        return b.append("<p class=\"hint\">This cluster keeps no latency histograms (a TCP cluster times no "
                + "requests).</p></section>").toString();
    }

    /** One node's chart. */
    static String figure(String node, LatencyHistogram.Reading reading) {
        long[] cumulative = reading.cumulative();
        int buckets = cumulative.length;
        long[] counts = new long[buckets];
        long max = 0;
        for (int i = 0; i < buckets; i++) {
            counts[i] = cumulative[i] - (i == 0 ? 0 : cumulative[i - 1]);
            max = Math.max(max, counts[i]);
        }
        int width = LEFT * 2 + buckets * (BAR + GAP);
        int height = TOP + PLOT + LABEL;
        String id = "histogram-" + Html.text(Html.url(node));
        StringBuilder b = new StringBuilder("<figure class=\"histogram\" data-node=\"").append(Html.text(node))
                .append("\"><svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" viewBox=\"0 0 ").append(width)
                .append(' ').append(height).append("\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" aria-labelledby=\"").append(id).append("-title ").append(id).append("-desc\"><title id=\"")
                .append(id).append("-title\">Request duration of node ").append(Html.text(node))
                .append("</title><desc id=\"").append(id).append("-desc\">");
        for (int i = 0; i < buckets; i++) {
            b.append(i == 0 ? "" : ", ").append(label(i)).append(": ").append(counts[i]);
        }
        b.append("</desc><line class=\"axis\" x1=\"").append(LEFT).append("\" y1=\"").append(TOP + PLOT)
                .append("\" x2=\"").append(width - LEFT).append("\" y2=\"").append(TOP + PLOT).append("\"/>");
        for (int i = 0; i < buckets; i++) {
            int x = LEFT + i * (BAR + GAP);
            int h = max == 0 ? 0 : (int) Math.max(counts[i] > 0 ? 1 : 0, Math.round((double) counts[i] * PLOT / max));
            int mid = x + BAR / 2;
            b.append("<g class=\"bucket\" data-le=\"").append(label(i)).append("\" data-count=\"").append(counts[i])
                    .append("\"><rect class=\"bar\" x=\"").append(x).append("\" y=\"").append(TOP + PLOT - h)
                    .append("\" width=\"").append(BAR).append("\" height=\"").append(h).append("\"/><text class=\"count\" x=\"")
                    .append(mid).append("\" y=\"").append(TOP + PLOT - h - 4).append("\">").append(counts[i])
                    .append("</text><text class=\"le\" x=\"").append(mid).append("\" y=\"").append(TOP + PLOT + 16)
                    .append("\">").append(label(i)).append("</text></g>");
        }
        return b.append("</svg><figcaption>Node ").append(Html.text(node)).append(": ").append(reading.count())
                .append(" requests</figcaption></figure>").toString();
    }

    /** The bucket's upper bound: {@code 0.5ms} .. {@code 60s}, then {@code >60s}. */
    static String label(int bucket) {
        double[] bounds = LatencyHistogram.BOUNDS_SECONDS;
        if (bucket >= bounds.length) {
            return "&gt;" + seconds(bounds[bounds.length - 1]);
        }
        return seconds(bounds[bucket]);
    }

    private static String seconds(double s) {
        if (s < 1) {
            double ms = s * 1000;
            return (ms == Math.rint(ms) ? String.valueOf((long) ms) : String.format(Locale.ROOT, "%.1f", ms)) + "ms";
        }
        return (s == Math.rint(s) ? String.valueOf((long) s) : String.format(Locale.ROOT, "%.1f", s)) + "s";
    }
}
