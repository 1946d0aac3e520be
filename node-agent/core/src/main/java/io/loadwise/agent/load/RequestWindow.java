package io.loadwise.agent.load;

/**
 * Turns the {@link RequestRecorder}'s cumulative counters into figures over the last second, on the
 * sampler thread. It keeps a small ring of earlier reads (one at most every {@value #SLOT_MILLIS} ms, so
 * the ring spans {@value #SLOTS} x {@value #SLOT_MILLIS} ms whatever the sampling interval) and compares the
 * current read with the newest one at least {@value #WINDOW_MILLIS} ms old; until there is one, with the
 * oldest. All arrays are allocated once, here. Not thread-safe: the sampler thread is its only user.
 */
final class RequestWindow {

    static final long WINDOW_MILLIS = 1000;
    static final long SLOT_MILLIS = 100;
    static final int SLOTS = 16;

    private final RequestRecorder recorder;
    private final long[][] ring = new long[SLOTS][RequestRecorder.cumulativeLength()];
    private final long[] ringMillis = new long[SLOTS];
    private final long[] current = new long[RequestRecorder.cumulativeLength()];
    private int size;
    private int newest = -1;

    RequestWindow(RequestRecorder recorder) {
        this.recorder = recorder;
    }

    /** Figures over the last second as of {@code nowMillis} (a monotonic clock). */
    Summary summarise(long nowMillis) {
        long inFlight = recorder.inFlight();
        recorder.readCumulative(current);
        if (size == 0 || nowMillis - ringMillis[newest] >= SLOT_MILLIS) {
            newest = (newest + 1) % SLOTS;
            System.arraycopy(current, 0, ring[newest], 0, current.length);
            ringMillis[newest] = nowMillis;
            size = Math.min(size + 1, SLOTS);
        }
        int base = baseSlot(nowMillis);
        long elapsed = nowMillis - ringMillis[base];
        long[] then = ring[base];
        long completed = current[0] - then[0];
        if (elapsed <= 0) {
            return new Summary(inFlight, Double.NaN, Double.NaN, Double.NaN, completed, Double.NaN);
        }
        double rate = completed * 1000.0 / elapsed;
        double errorRate = Math.max(0, current[2] - then[2]) * 1000.0 / elapsed;
        if (completed <= 0) {
            return new Summary(inFlight, rate, Double.NaN, Double.NaN, 0, errorRate);
        }
        double meanMillis = (current[1] - then[1]) / 1e6 / completed;
        return new Summary(inFlight, rate, meanMillis, percentileMillis(then, completed, 0.95), completed, errorRate);
    }

    /** The newest slot at least a window old, else the oldest slot. */
    private int baseSlot(long nowMillis) {
        int oldest = (newest - size + 1 + SLOTS) % SLOTS;
        for (int k = 0; k < size; k++) {
            int slot = (newest - k + SLOTS) % SLOTS;
            if (nowMillis - ringMillis[slot] >= WINDOW_MILLIS) {
                return slot;
            }
        }
        return oldest;
    }

    /** The midpoint of the bucket holding the {@code q} quantile of the window's service times, in ms. */
    private double percentileMillis(long[] then, long completed, double q) {
        long rank = (long) Math.ceil(q * completed);
        long seen = 0;
        int highest = -1;
        for (int i = 0; i < ServiceTimeBuckets.COUNT; i++) {
            long inBucket = current[RequestRecorder.BUCKETS + i] - then[RequestRecorder.BUCKETS + i];
            if (inBucket > 0) {
                highest = i;
                seen += inBucket;
                if (seen >= rank) {
                    return midpointMillis(i);
                }
            }
        }
        // read while requests finished, the buckets may lag the count by a few: the slowest one seen
        return highest < 0 ? Double.NaN : midpointMillis(highest);
    }

    private static double midpointMillis(int bucket) {
        return (ServiceTimeBuckets.lowerBound(bucket) + ServiceTimeBuckets.upperBound(bucket) - 1) / 2.0 / 1000.0;
    }

    /**
     * One summary: requests in flight now; over the window, requests completed per second, their mean
     * and 95th-percentile service time in ms (NaN when no request completed), how many completed, and
     * failed requests per second (NaN, as the rate, before any time has passed).
     */
    record Summary(long inFlight, double ratePerSecond, double meanMillis, double p95Millis, long completed,
                   double errorRatePerSecond) {

        /**
         * Mean requests in the application over the window, by Little's law (rate × mean service time),
         * over {@code capacity}: how busy the workers were on average, not at one instant. NaN when no
         * request completed.
         */
        double utilization(double capacity) {
            return completed > 0 && capacity > 0 ? ratePerSecond * meanMillis / 1000 / capacity : Double.NaN;
        }
    }
}
