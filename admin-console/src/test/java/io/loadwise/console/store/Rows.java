package io.loadwise.console.store;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/** Rows of values as the recorder builds them, and a disk whose free space a test sets. */
final class Rows {

    private Rows() {
    }

    /**
     * A node row at second {@code t}: the series every node store holds get {@code t % 1000 + i / 100}, the
     * named agent metrics {@code t % 1000 + 0.5}, everything else unknown.
     */
    static double[] node(long t, String... agentMetrics) {
        SeriesCatalog catalog = SeriesCatalog.NODE;
        double[] row = new double[catalog.size()];
        Arrays.fill(row, Double.NaN);
        for (Series s : catalog.always()) {
            int i = catalog.indexOf(s.metric());
            row[i] = (t % 1000) + i / 100.0;
        }
        for (String metric : agentMetrics) {
            row[catalog.indexOf(metric)] = (t % 1000) + 0.5;
        }
        return row;
    }

    /** A row with a value for every series of the catalog. */
    static double[] full(SeriesCatalog catalog, long t) {
        return MetricStoreTest.row(catalog, t);
    }

    /** A file system of {@code total} bytes with {@code usable} free, both settable; {@code broken} fails reads. */
    static final class FakeDisk implements DiskSpace {
        final AtomicLong usable;
        final AtomicLong total;
        volatile boolean broken;

        FakeDisk(long usable, long total) {
            this.usable = new AtomicLong(usable);
            this.total = new AtomicLong(total);
        }

        /** Plenty of room. */
        static FakeDisk roomy() {
            return new FakeDisk(500L << 30, 1000L << 30);
        }

        @Override
        public long usableBytes() throws IOException {
            if (broken) {
                throw new IOException("statfs failed");
            }
            return usable.get();
        }

        @Override
        public long totalBytes() throws IOException {
            if (broken) {
                throw new IOException("statfs failed");
            }
            return total.get();
        }
    }
}
