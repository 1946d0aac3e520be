package io.loadwise.console.store;

import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.rrd4j.ConsolFun;
import org.rrd4j.core.FetchData;

/**
 * One series as CSV: {@code timestamp,average,max}, one row per archive step of the window, timestamps in
 * ISO-8601 UTC, unknown values as empty fields.
 */
public final class SeriesCsv {

    public static final String HEADER = "timestamp,average,max";

    private SeriesCsv() {
    }

    /**
     * @param store {@code null}, or not holding {@code series}, when nothing of it is recorded (a node that
     *     does not report the metric, or whose store the budget refused): every row is then unknown
     */
    public static String csv(MetricStore store, Series series, Window window, long endSeconds) throws IOException {
        long resolution = window.resolutionSeconds();
        long end = endSeconds - endSeconds % resolution;
        long start = end - window.seconds();
        if (store == null || !store.holds(series)) {
            StringBuilder out = new StringBuilder(HEADER).append('\n');
            for (long t = start; t <= end; t += resolution) {
                out.append(Instant.ofEpochSecond(t)).append(",,\n");
            }
            return out.toString();
        }
        FetchData average = store.fetch(series, ConsolFun.AVERAGE, start, end, resolution);
        FetchData max = store.fetch(series, ConsolFun.MAX, start, end, resolution);
        Map<Long, Double> maxByTime = new HashMap<>();
        long[] maxTimes = max.getTimestamps();
        double[] maxValues = max.getValues(0);
        for (int i = 0; i < maxTimes.length; i++) {
            maxByTime.put(maxTimes[i], maxValues[i]);
        }
        long[] times = average.getTimestamps();
        double[] values = average.getValues(0);
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (int i = 0; i < times.length; i++) {
            if (times[i] < start || times[i] > end) {
                continue;
            }
            out.append(Instant.ofEpochSecond(times[i])).append(',')
                    .append(number(values[i])).append(',')
                    .append(number(maxByTime.getOrDefault(times[i], Double.NaN))).append('\n');
        }
        return out.toString();
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "" : Double.toString(value);
    }
}
