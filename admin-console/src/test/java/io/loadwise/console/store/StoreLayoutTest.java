package io.loadwise.console.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.wire.SeedMetric;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rrd4j.ConsolFun;
import org.rrd4j.DsType;
import org.rrd4j.core.Archive;
import org.rrd4j.core.Datasource;
import org.rrd4j.core.RrdDb;

/** The files on disk have exactly the documented layout, read back with plain rrd4j. */
class StoreLayoutTest {

    @TempDir
    Path dir;

    @Test
    void everyStoreHasOneSecondStepAnHourAtOneSecondAndAverageAndMaxForADayAndThirtyDays() throws Exception {
        Path file = dir.resolve("cluster.rrd");
        MetricStore.openOrCreate(file, SeriesCatalog.CLUSTER).close();
        try (RrdDb db = RrdDb.getBuilder().setPath(file.toString()).readOnly().build()) {
            assertEquals(1, db.getHeader().getStep());
            List<String> archives = new ArrayList<>();
            for (int i = 0; i < db.getArcCount(); i++) {
                Archive a = db.getArchive(i);
                archives.add(a.getConsolFun() + " " + a.getSteps() + "x" + a.getRows() + " = " + a.getArcStep() * a.getRows() + " s");
            }
            assertEquals(List.of(
                    "AVERAGE 1x3600 = 3600 s", "AVERAGE 60x1440 = 86400 s", "AVERAGE 1800x1440 = 2592000 s",
                    "MAX 60x1440 = 86400 s", "MAX 1800x1440 = 2592000 s"), archives);
            assertEquals(ConsolFun.MAX, db.getArchive(ConsolFun.MAX, 1800).getConsolFun());
            for (int i = 0; i < db.getDsCount(); i++) {
                Datasource ds = db.getDatasource(i);
                assertEquals(DsType.GAUGE, ds.getType(), ds.getName());
                assertEquals(StoreLayout.HEARTBEAT_SECONDS, ds.getHeartbeat(), ds.getName());
            }
        }
    }

    @Test
    void clusterStoreHoldsTable2() throws Exception {
        Path file = dir.resolve("cluster.rrd");
        MetricStore.openOrCreate(file, SeriesCatalog.CLUSTER).close();
        try (RrdDb db = RrdDb.getBuilder().setPath(file.toString()).readOnly().build()) {
            assertEquals(List.of("TD_AVE_CONNS_ACT", "TD_AVE_RQSTS_ACT", "TD_AVE_RSPS_TIME", "TD_AVE_THROUGHPUT",
                    "TD_AVE_FAIL_RQSTS", "TD_AVE_SRV_SELS", "TD_AVE_SRV_SEL", "TD_AVE_SRV_CONN_WAIT", "TD_AVE_RQ_PROCTIME",
                    "TD_AVE_SLOWDOWN", "TD_AVE_TRAF_IN", "TD_AVE_TRAF_OUT", "TD_QUEUE_LENGTH", "TD_QUEUE_TIME",
                    "TD_RETRIES"), List.of(db.getDsNames()), "Table 2, then the queue and retries");
        }
    }

    @Test
    void nodeStoreHoldsEverySeedAgentMetricTable6AndTheNodesTable2() throws Exception {
        Path file = dir.resolve("n1.rrd");
        MetricStore.openOrCreate(file, SeriesCatalog.NODE).close();
        try (RrdDb db = RrdDb.getBuilder().setPath(file.toString()).readOnly().build()) {
            List<String> names = List.of(db.getDsNames());
            for (SeedMetric m : SeedMetric.values()) {
                assertTrue(names.contains(DsNames.of(m.seedName())), m.seedName());
            }
            for (String table6 : List.of("NODE_NMA_RSPS_TIME", "NODE_AVAILABILITY_P", "TAP_NODE_LOAD_P", "TAP_NODE_SEL",
                    "TAP_RQST_LASTTIME")) {
                assertTrue(names.contains(table6), table6);
            }
            assertTrue(names.contains("TD_AVE_THROUGHPUT"));
            assertEquals(SeedMetric.values().length + 5 + 12, names.size());
            assertEquals(5, db.getArcCount());
        }
    }

    @Test
    void nodeSeriesAreGroupedForTheMetricsPages() {
        assertEquals(List.of(SeriesGroup.DISPATCHER, SeriesGroup.OS, SeriesGroup.OS_NETWORK, SeriesGroup.JVM,
                SeriesGroup.APPSERVER, SeriesGroup.POLICY), List.copyOf(SeriesCatalog.NODE.byGroup().keySet()));
        assertEquals(List.of(SeriesGroup.DISPATCHER), List.copyOf(SeriesCatalog.CLUSTER.byGroup().keySet()));
        assertEquals(SeriesGroup.OS_NETWORK, SeriesCatalog.NODE.find("NET_TCP_CUR_ESTAB").group());
        assertEquals(SeriesGroup.OS, SeriesCatalog.NODE.find("OS_CPU_USED%").group());
        assertEquals(SeriesGroup.APPSERVER, SeriesCatalog.NODE.find("AMX_CONNS_Q_THRBSY%").group());
        assertEquals(SeriesGroup.JVM, SeriesCatalog.NODE.find("JVM_HEAP_USED%").group());
        assertEquals(SeriesGroup.POLICY, SeriesCatalog.NODE.find("TAP_RQST_LASTTIME").group());
    }

    @Test
    void everyWindowTheConsoleOffersHasAnArchiveWithAtLeastTwoPointsPerPixel() {
        for (Window window : Window.values()) {
            for (ConsolFun function : new ConsolFun[] {ConsolFun.AVERAGE, ConsolFun.MAX}) {
                ConsolFun read = StoreLayout.readFunction(function, window.resolutionSeconds());
                StoreLayout.ArchiveSpec archive = StoreLayout.ARCHIVES.stream()
                        .filter(a -> a.function() == read && a.resolutionSeconds() == window.resolutionSeconds())
                        .findFirst().orElseThrow(() -> new AssertionError("no archive for " + window + " " + function));
                assertTrue(archive.spanSeconds() >= window.seconds(), window + " " + function);
                assertTrue(window.seconds() / window.resolutionSeconds() >= Math.min(600, 2 * SeriesGraph.PLOT_WIDTH),
                        window + " has " + window.seconds() / window.resolutionSeconds() + " points");
            }
        }
    }
}
