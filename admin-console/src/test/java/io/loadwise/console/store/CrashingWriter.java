package io.loadwise.console.store;

import java.nio.file.Path;

/**
 * The child process of {@link CrashSafetyTest}: writes a node store as fast as it can, creating a new
 * cluster store every 100 samples, and reports progress on stdout until it is killed. Timestamps
 * continue from what is already in the store, so a restarted child carries on.
 */
public final class CrashingWriter {

    private CrashingWriter() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        MetricStore node = MetricStore.openOrCreate(dir.resolve("node.rrd"), SeriesCatalog.NODE,
                CrashSafetyTest.START);
        long t = Math.max(node.lastUpdateSeconds() + 1, CrashSafetyTest.START);
        for (int created = 0; ; created++) {
            for (int i = 0; i < 100; i++, t++) {
                node.update(t, MetricStoreTest.row(SeriesCatalog.NODE, t));
                // The sample of t is complete: the parent may rely on it.
                System.out.println("written " + t);
            }
            Path cluster = dir.resolve("cluster-" + ProcessHandle.current().pid() + "-" + created + ".rrd");
            System.out.println("creating " + cluster.getFileName());
            MetricStore.openOrCreate(cluster, SeriesCatalog.CLUSTER, CrashSafetyTest.START).close();
        }
    }
}
