package io.loadwise.console.replicas;

import io.loadwise.console.store.Series;
import io.loadwise.console.store.SeriesPoints;
import io.loadwise.console.store.Window;

/**
 * A series as JSON: what {@code GET /api/clusters/{c}/series/{metric}.json} answers and what a replica reads
 * back from the others. Timestamps are epoch seconds, each the end of its step; unknown values are
 * {@code null}.
 *
 * @param replica the answering replica's id, {@code null} with the file store
 * @param step seconds between points
 * @param archiveStep the step of the archive read; {@code step} is a multiple of it when the window has more
 *     archive steps than {@code pointCap}
 * @param pointCap the most points a series answers
 * @param consolidated whether {@code step} is coarser than {@code archiveStep} to stay within the cap
 */
public record SeriesDocument(String cluster, String metric, String unit, String window, String replica, long start,
        long end, long step, long archiveStep, int pointCap, boolean consolidated, long[] timestamps, Double[] values) {

    public static SeriesDocument of(String cluster, Series series, Window window, String replica, SeriesPoints points) {
        Double[] values = new Double[points.size()];
        for (int i = 0; i < values.length; i++) {
            double v = points.values()[i];
            values[i] = Double.isFinite(v) ? v : null;
        }
        return new SeriesDocument(cluster, series.metric(), series.unit(), window.key(), replica, points.start(),
                points.end(), points.step(), points.archiveStep(), SeriesPoints.MAX_POINTS,
                points.step() != points.archiveStep(), points.timestamps().clone(), values);
    }

    /**
     * The points of a document another replica sent, checked against what was asked: the metric, the step, at
     * most {@link SeriesPoints#MAX_POINTS} points on a regular grid, finite values.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public SeriesPoints toPoints(String expectedMetric, long expectedStep) {
        if (!expectedMetric.equals(metric)) {
            throw new IllegalArgumentException("metric '" + metric + "', not " + expectedMetric);
        }
        if (step != expectedStep) {
            throw new IllegalArgumentException("step " + step + " s, not " + expectedStep + " s");
        }
        if (timestamps == null || values == null || timestamps.length != values.length) {
            throw new IllegalArgumentException("timestamps and values differ in number");
        }
        if (timestamps.length == 0 || timestamps.length > SeriesPoints.MAX_POINTS) {
            throw new IllegalArgumentException(timestamps.length + " points, expected 1 to " + SeriesPoints.MAX_POINTS);
        }
        double[] out = new double[values.length];
        for (int i = 0; i < timestamps.length; i++) {
            if (timestamps[i] != timestamps[0] + i * step || Math.floorMod(timestamps[i], step) != 0) {
                throw new IllegalArgumentException("timestamps not every " + step + " s");
            }
            Double v = values[i];
            if (v != null && !Double.isFinite(v)) {
                throw new IllegalArgumentException("a value that is not a finite number");
            }
            out[i] = v == null ? Double.NaN : v;
        }
        long first = timestamps[0];
        long last = timestamps[timestamps.length - 1];
        return new SeriesPoints(first, last, step, archiveStep, timestamps.clone(), out);
    }
}
