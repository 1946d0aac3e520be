package io.loadwise.console.replicas;

import io.loadwise.console.store.Series;
import io.loadwise.console.store.SeriesPoints;
import java.util.List;
import java.util.Set;

/**
 * Which cluster series add up over replicas, and the adding. Counts and rates do: each replica serves its own
 * clients, so the site's active connections, throughput, failures, selections and traffic are the sums of the
 * replicas'. Means and ratios do not (the mean response time of a site is not the sum of the replicas' means,
 * and a mean of means weighted equally would be wrong whenever replicas carry different loads): they are
 * refused for a sum and shown one line per replica instead.
 */
public final class ReplicaSeries {

    /**
     * The cluster series that add up over replicas: counts and rates of seed Table 2, and each replica's
     * queue length and retries (TD_QUEUE_TIME is a mean, like the response times).
     */
    public static final Set<String> ADDITIVE = Set.of("TD_AVE_CONNS_ACT", "TD_AVE_RQSTS_ACT", "TD_AVE_THROUGHPUT",
            "TD_AVE_FAIL_RQSTS", "TD_AVE_SRV_SELS", "TD_AVE_TRAF_IN", "TD_AVE_TRAF_OUT", "TD_QUEUE_LENGTH",
            "TD_RETRIES");

    private ReplicaSeries() {
    }

    public static boolean additive(Series series) {
        return ADDITIVE.contains(series.metric());
    }

    /** Why a series is not summed, for the 400 that refuses it. */
    public static String notAdditive(Series series) {
        String kind = series.unit().equals("ms") ? "a mean time (ms)" : "a ratio";
        return series.metric() + " is " + kind + ": it does not add up over replicas; ask view=each for one line "
                + "per replica. Series that add up: " + String.join(", ", ADDITIVE.stream().sorted().toList());
    }

    /** {@code part}'s values on {@code grid}'s timestamps; unknown where {@code part} has no point there. */
    public static SeriesPoints align(SeriesPoints grid, SeriesPoints part) {
        double[] values = new double[grid.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = grid.step() == part.step() ? part.valueAt(grid.timestamps()[i]) : Double.NaN;
        }
        return new SeriesPoints(grid.start(), grid.end(), grid.step(), grid.archiveStep(), grid.timestamps().clone(),
                values);
    }

    /**
     * The sum of {@code parts} on {@code grid}'s timestamps: at each, the sum of the known values; unknown where
     * no part knows a value (a replica that was not running then adds nothing).
     */
    public static SeriesPoints sum(SeriesPoints grid, List<SeriesPoints> parts) {
        double[] values = new double[grid.size()];
        for (int i = 0; i < values.length; i++) {
            double total = 0;
            boolean known = false;
            for (SeriesPoints part : parts) {
                double v = grid.step() == part.step() ? part.valueAt(grid.timestamps()[i]) : Double.NaN;
                if (!Double.isNaN(v)) {
                    total += v;
                    known = true;
                }
            }
            values[i] = known ? total : Double.NaN;
        }
        return new SeriesPoints(grid.start(), grid.end(), grid.step(), grid.archiveStep(), grid.timestamps().clone(),
                values);
    }
}
