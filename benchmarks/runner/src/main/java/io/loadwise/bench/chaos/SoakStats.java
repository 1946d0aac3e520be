package io.loadwise.bench.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the soak keeps of its load, bounded for any length of run: per minute of send time the requests, the
 * failures and a {@link LatencyHistogram} of the answers; and each failure's send time and cause (for the
 * kill-window classification), at most {@value #MAX_FAILURES_KEPT} of them (the counts go on beyond).
 */
final class SoakStats implements OpenLoad.Sink {

    static final int MAX_FAILURES_KEPT = 100_000;
    private static final long MINUTE = 60_000_000_000L;

    /** One failed request: when it was sent (ns since the load began) and why it failed. */
    record Failure(long startNanos, String cause) {
    }

    /** A minute's figures so far. */
    record Minute(int minute, long requests, long failed, double p99Millis) {
    }

    private final List<LatencyHistogram> latencies = new ArrayList<>();
    private final List<long[]> counts = new ArrayList<>();
    private final List<Failure> failures = new ArrayList<>();
    private long failuresDropped;

    @Override
    public synchronized void record(Outcome outcome, long latencyNanos) {
        int m = (int) (Math.max(0, outcome.startNanos()) / MINUTE);
        while (counts.size() <= m) {
            counts.add(new long[2]);
            latencies.add(new LatencyHistogram());
        }
        counts.get(m)[0]++;
        if (outcome.ok()) {
            latencies.get(m).record(latencyNanos);
        } else {
            counts.get(m)[1]++;
            if (failures.size() < MAX_FAILURES_KEPT) {
                failures.add(new Failure(outcome.startNanos(), outcome.cause()));
            } else {
                failuresDropped++;
            }
        }
    }

    /** Minute {@code m} (0 the first) as far as its answers are in. */
    synchronized Minute minute(int m) {
        if (m >= counts.size()) {
            return new Minute(m, 0, 0, Double.NaN);
        }
        return new Minute(m, counts.get(m)[0], counts.get(m)[1], latencies.get(m).quantileMillis(0.99));
    }

    synchronized int minutes() {
        return counts.size();
    }

    synchronized List<Failure> failures() {
        return List.copyOf(failures);
    }

    synchronized long failuresDropped() {
        return failuresDropped;
    }

    /** Failures by cause, over the run. */
    synchronized Map<String, Long> causes() {
        Map<String, Long> causes = new TreeMap<>();
        for (Failure f : failures) {
            causes.merge(f.cause(), 1L, Long::sum);
        }
        return causes;
    }
}
