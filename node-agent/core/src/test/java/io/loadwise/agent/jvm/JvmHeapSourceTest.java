package io.loadwise.agent.jvm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.metric.MetricSink;
import java.lang.management.ManagementFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** On this JVM's real heap and pools. */
class JvmHeapSourceTest {

    private static final int RETAINED_MB = 24;

    @Test
    void usedHeapCountsWhatSurvivedACollection() {
        JvmHeapSource source = new JvmHeapSource(ManagementFactory.getMemoryMXBean(),
                ManagementFactory.getMemoryPoolMXBeans());
        byte[] kept = new byte[RETAINED_MB * 1024 * 1024];
        System.gc(); // the array is now past eden: it survived a collection
        Map<String, Double> after = collect(source);
        assertTrue(after.get("JVM_HEAP_USED") >= RETAINED_MB, "a live " + RETAINED_MB + " MB array counts: " + after);
        assertTrue(after.get("JVM_HEAP_USED%") > 0 && after.get("JVM_HEAP_USED%") <= 100, after.toString());

        assertTrue(kept.length > 0);
    }

    private static Map<String, Double> collect(JvmHeapSource source) {
        MetricSink sink = new MetricSink();
        source.collect(sink);
        return sink.values();
    }
}
