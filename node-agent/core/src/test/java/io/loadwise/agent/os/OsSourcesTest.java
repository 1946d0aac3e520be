package io.loadwise.agent.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.SeedMetric;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OsSourcesTest {

    private static final Path PROC = Path.of("/proc");

    @Test
    void bundledLibraryNamesFollowOsAndArch() {
        assertEquals("libsigar-amd64-linux-1.6.4.so", SigarLoader.libraryName("Linux", "amd64"));
        assertEquals("libsigar-x86-linux-1.6.4.so", SigarLoader.libraryName("Linux", "i686"));
        assertEquals("libsigar-universal64-macosx-1.6.4.dylib", SigarLoader.libraryName("Mac OS X", "x86_64"));
        assertEquals("libsigar-amd64-solaris-1.6.4.so", SigarLoader.libraryName("SunOS", "amd64"));
        assertNull(SigarLoader.libraryName("Linux", "aarch64"));
        assertNull(SigarLoader.libraryName("Mac OS X", "aarch64"));
        assertNull(SigarLoader.libraryName("Windows 11", "amd64"));
        for (String lib : new String[] {"libsigar-amd64-linux-1.6.4.so", "libsigar-x86-linux-1.6.4.so"}) {
            assertNotNull(SigarLoader.class.getResource(SigarLoader.NATIVE_DIR + lib), lib + " not bundled");
        }
    }

    @Test
    void sigarLoadsFromTheBundledLibraryAndReportsEveryOsGroup() throws Exception {
        assumeTrue(SigarLoader.libraryName(System.getProperty("os.name"), System.getProperty("os.arch")) != null,
                "no SIGAR library for this platform; the fallback test covers it");
        OsSources sources = OsSources.select(OsSources.Mode.SIGAR, PROC);
        try {
            assertEquals("sigar", sources.name(), () -> "fell back: " + sources.fallbackReason());
            Map<String, Double> values = collectUntilCpuKnown(sources);
            assertPercent(values, SeedMetric.OS_CPU_USED_PCT);
            assertPercent(values, SeedMetric.OS_CPU_IOWAIT_PCT);
            assertPercent(values, SeedMetric.OS_MEM_USED_PCT);
            assertTrue(values.get(SeedMetric.OS_MEM_TOTAL.seedName()) > 0);
            assertTrue(values.get(SeedMetric.OS_LOAD_MAX.seedName()) >= 1);
            assertTrue(values.containsKey(SeedMetric.NET_TCP_IN_SEGS.seedName()));
            assertTrue(values.containsKey(SeedMetric.OS_SWAP_TOTAL.seedName()));
        } finally {
            sources.close();
        }
    }

    @Test
    void pureJavaFallbackReadsProcForCpuIowaitMemorySwapDiskAndTcp() throws Exception {
        assumeTrue(Files.isReadable(PROC.resolve("stat")), "not Linux");
        OsSources sources = OsSources.select(OsSources.Mode.JAVA, PROC);
        assertEquals("java+proc", sources.name());
        assertNotNull(sources.fallbackReason());
        Map<String, Double> values = collectUntilCpuKnown(sources);
        assertPercent(values, SeedMetric.OS_CPU_USED_PCT);
        assertPercent(values, SeedMetric.OS_CPU_IOWAIT_PCT);
        assertPercent(values, SeedMetric.OS_CPU_IDLE_PCT);
        assertPercent(values, SeedMetric.OS_MEM_USED_PCT);
        assertEquals(100.0, values.get("OS_MEM_USED%") + values.get("OS_MEM_FREE%"), 1e-6);
        assertEquals(100.0, values.get("OS_CPU_USED%") + values.get("OS_CPU_AVAIL%"), 1e-6);
        assertTrue(values.get("OS_MEM_TOTAL") > 0);
        assertTrue(values.containsKey("OS_SWAP_TOTAL"));
        assertTrue(values.containsKey("OS_SWAP_PAGEINS"));
        assertTrue(values.get("OS_LOAD_MAX") >= 1);
        assertTrue(values.containsKey("OS_LOAD_AVE15"));
        assertTrue(values.get("NET_TCP_IN_SEGS") >= 0);
    }

    /** CPU needs two readings at least one kernel tick apart; poll until then (bounded). */
    private static Map<String, Double> collectUntilCpuKnown(OsSources sources) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (true) {
            MetricSink sink = new MetricSink();
            for (MetricSource s : sources.fast()) {
                s.collect(sink);
            }
            if (sink.values().containsKey("OS_CPU_USED%")) {
                for (MetricSource s : sources.slow()) {
                    s.collect(sink);
                }
                return sink.values();
            }
            assertTrue(System.nanoTime() < deadline, "CPU metrics never appeared");
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000L); // poll interval, not synchronisation
        }
    }

    private static void assertPercent(Map<String, Double> values, SeedMetric metric) {
        Double v = values.get(metric.seedName());
        assertNotNull(v, metric.seedName() + " missing from " + values.keySet());
        assertTrue(v >= 0 && v <= 100, metric.seedName() + " = " + v);
    }
}
