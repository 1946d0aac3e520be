package io.loadwise.console.store;

import java.io.IOException;
import org.rrd4j.ConsolFun;
import org.rrd4j.core.FetchData;

/**
 * One series of one store over a window as numbers: the AVERAGE archive's values on a grid of timestamps
 * ({@code start}, {@code start + step}, …, {@code end}, epoch seconds, each the end of its step). What
 * {@code GET /api/clusters/{c}/series/{metric}.json} answers and what a replica sums over the others.
 *
 * <p>Bounded: a window never gives more than {@link #MAX_POINTS} points. One whose archive has more steps
 * (1 h at 1 s is 3601) is read at a coarser step, a whole multiple of the archive's, each point the mean of
 * the known archive values within its step ({@code step} then differs from {@code archiveStep}). The grid is
 * aligned to multiples of {@code step}, so the series of two replicas read at about the same time share
 * their timestamps.
 *
 * @param values {@code NaN} where nothing is known
 */
public record SeriesPoints(long start, long end, long step, long archiveStep, long[] timestamps, double[] values) {

    /** The most points one series answers. */
    public static final int MAX_POINTS = 1000;

    public SeriesPoints {
        if (timestamps.length != values.length) {
            throw new IllegalArgumentException(timestamps.length + " timestamps for " + values.length + " values");
        }
    }

    /** The step a window is answered at: its archive's, or a multiple of it that keeps it within {@link #MAX_POINTS}. */
    public static long step(Window window) {
        long archive = window.resolutionSeconds();
        long points = window.seconds() / archive + 1;
        long factor = (points + MAX_POINTS - 1) / MAX_POINTS;
        return archive * factor;
    }

    /** The grid of a window ending at about {@code endSeconds}: every value unknown. */
    public static SeriesPoints unknown(Window window, long endSeconds) {
        long step = step(window);
        long end = endSeconds - Math.floorMod(endSeconds, step);
        long start = end - window.seconds();
        int n = (int) ((end - start) / step) + 1;
        long[] times = new long[n];
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            times[i] = start + i * step;
            values[i] = Double.NaN;
        }
        return new SeriesPoints(start, end, step, window.resolutionSeconds(), times, values);
    }

    /**
     * @param store {@code null}, or not holding {@code series}, when nothing of it is recorded: every value is
     *     then unknown
     */
    public static SeriesPoints read(MetricStore store, Series series, Window window, long endSeconds)
            throws IOException {
        SeriesPoints grid = unknown(window, endSeconds);
        if (store == null || !store.holds(series)) {
            return grid;
        }
        long archiveStep = window.resolutionSeconds();
        // From the first point, not the step before it: a longer span would make rrd4j read a coarser archive (the
        // 1 s one holds an hour). The first point of a consolidated grid thus holds its last archive step only.
        FetchData data = store.fetch(series, ConsolFun.AVERAGE, grid.start, grid.end, archiveStep);
        long[] times = data.getTimestamps();
        double[] raw = data.getValues(0);
        double[] sums = new double[grid.values.length];
        int[] counts = new int[grid.values.length];
        for (int i = 0; i < times.length; i++) {
            if (Double.isNaN(raw[i]) || times[i] < grid.start || times[i] > grid.end) {
                continue;
            }
            // The point whose step (t - step, t] holds this archive value.
            long t = times[i] + Math.floorMod(-times[i], grid.step);
            int index = (int) ((t - grid.start) / grid.step);
            sums[index] += raw[i];
            counts[index]++;
        }
        for (int i = 0; i < sums.length; i++) {
            grid.values[i] = counts[i] == 0 ? Double.NaN : sums[i] / counts[i];
        }
        return grid;
    }

    public int size() {
        return timestamps.length;
    }

    /** The value at {@code timestamp}, or {@code NaN} when it is not on the grid or unknown. */
    public double valueAt(long timestamp) {
        if (timestamp < start || timestamp > end || Math.floorMod(timestamp - start, step) != 0) {
            return Double.NaN;
        }
        return values[(int) ((timestamp - start) / step)];
    }

    /** The value of the step holding {@code timestamp} (for drawing: rrd4j asks at its own pixel times). */
    public double valueCovering(long timestamp) {
        if (timestamp <= start - step || timestamp > end) {
            return Double.NaN;
        }
        long t = timestamp + Math.floorMod(-timestamp, step);
        return valueAt(t);
    }
}
