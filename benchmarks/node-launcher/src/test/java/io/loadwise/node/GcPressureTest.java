package io.loadwise.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class GcPressureTest {

    private static long collections() {
        long count = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
        }
        return count;
    }

    @Test
    void theThreadCollectsOverAndOverUntilInterrupted() throws Exception {
        long before = collections();
        Thread thread = new Thread(new GcPressure(5, 4), "gc-pressure-test");
        thread.setDaemon(true);
        thread.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (collections() < before + 5 && System.nanoTime() < deadline) {
            Thread.sleep(5); // a poll interval: the loop ends on the condition or the deadline
        }
        thread.interrupt();
        thread.join(10_000);
        assertTrue(collections() >= before + 5, "five collections or more: " + (collections() - before));
        assertTrue(!thread.isAlive(), "an interrupt ends it");
    }

    private static long usedAfterCollection() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Test
    void theBallastStaysLiveAsSmallObjects() {
        long before = usedAfterCollection();
        GcPressure pressure = new GcPressure(100, 16);
        long held = usedAfterCollection() - before;
        // 16 MB of 24-byte objects; compressed references or not, at least 90 % of it is live after a collection
        assertTrue(held >= 16L * 1024 * 1024 * 9 / 10, "live bytes held by a 16 MB ballast: " + held);
        assertTrue(pressure.toString() != null); // keeps the ballast reachable until here
    }

    @Test
    void thePressuredNodeRunsEveryThreadAtTheLowestPriorityThreadsStartedLaterToo() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/task")),
                "Linux only");
        Process probe = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ReniceProbe.class.getName()).redirectErrorStream(true).start();
        String out = new String(probe.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(probe.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the probe ends");
        assertEquals(0, probe.exitValue(), out);
        java.util.List<String> nice = out.lines().filter(line -> line.matches("-?[0-9]+")).toList();
        assertTrue(nice.size() >= 5, "one line per thread of a JVM: " + out);
        assertEquals(java.util.List.of(Integer.toString(GcPressure.NICE)), nice.stream().distinct().toList(), out);
    }

    @Test
    void aBadSettingNamesTheProperty() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GcPressure.parse("fast"));
        assertEquals("loadwise.bench.gcPressure: expected PERIOD_MS[:BALLAST_MB], got 'fast'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GcPressure.parse("0:10"));
        assertEquals("loadwise.bench.gcPressure: the period must be at least 1 ms and the ballast at least 0 MB, got 0 ms"
                + " and 10 MB", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> GcPressure.parse("1:2:3"));
    }
}
