package io.loadwise.console.store;

import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import java.util.List;

/** The dispatcher's figures of "the last second": the newest history snapshot, as Table 2 values. */
public final class LastSecond {

    /** A snapshot older than this is not the last second any more (the history has stopped). */
    public static final long MAX_AGE_MILLIS = 5_000;

    private LastSecond() {
    }

    /** The newest snapshot of a history if it is recent, otherwise {@code null}. */
    public static MetricsSnapshot of(List<MetricsSnapshot> history, long nowMillis) {
        if (history.isEmpty()) {
            return null;
        }
        MetricsSnapshot last = history.get(history.size() - 1);
        return nowMillis - last.epochMillis() > MAX_AGE_MILLIS ? null : last;
    }

    /** A cluster's figures of a snapshot, in the order of {@link SeriesCatalog#CLUSTER}: Table 2, queue, retries. */
    public static double[] cluster(MetricsSnapshot s) {
        double[] table2 = table2(s);
        double[] row = java.util.Arrays.copyOf(table2, table2.length + 3);
        row[table2.length] = s.queueLength();
        row[table2.length + 1] = s.queueMillis();
        row[table2.length + 2] = s.retries();
        return row;
    }

    /** Seed Table 2 figures of a snapshot, in the order of {@code SeriesCatalog.TABLE_2}. */
    public static double[] table2(MetricsSnapshot s) {
        return new double[] {s.activeConnections(), s.activeRequests(), s.latencyMillis(), s.throughput(), s.failed(),
            s.selections(), s.selectionMillis(), s.connectWaitMillis(), s.processingMillis(), s.slowdown(),
            s.trafficInMBps(), s.trafficOutMBps()};
    }
}
