package io.loadwise.agent.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SamplerTest {

    /** A source whose value the test sets; counts its calls. */
    private static final class SettableSource implements MetricSource {
        private final String name;
        volatile double value;
        final AtomicInteger calls = new AtomicInteger();

        SettableSource(String name, double value) {
            this.name = name;
            this.value = value;
        }

        @Override
        public MetricGroup group() {
            return MetricGroup.JVM;
        }

        @Override
        public void collect(MetricSink sink) {
            calls.incrementAndGet();
            sink.put(name, value);
        }
    }

    private static final MetricSource FAILING = new MetricSource() {
        @Override
        public MetricGroup group() {
            return MetricGroup.OS;
        }

        @Override
        public void collect(MetricSink sink) {
            throw new IllegalStateException("native call failed");
        }
    };

    @Test
    void everyRunsReadingsPassThroughTheTransformBeforePublication() {
        SettableSource heap = new SettableSource("JVM_HEAP_USED%", 40);
        SettableSource threads = new SettableSource("JVM_THREADS", 12);
        Sampler sampler = new Sampler(List.of(heap), List.of(heap, threads), Map::of, () -> 1_000L,
                io.loadwise.wire.OrcaLoadReport.Form.TEXT, new DoublingReadings());
        sampler.sampleFull();
        assertEquals(80.0, sampler.latest().metrics().get("JVM_HEAP_USED%"));
        assertEquals(24.0, sampler.latest().metrics().get("JVM_THREADS"));
        heap.value = 45;
        sampler.sampleFast();
        assertEquals(90.0, sampler.latest().metrics().get("JVM_HEAP_USED%"), "the fast run's own reading, doubled once");
        assertEquals(24.0, sampler.latest().metrics().get("JVM_THREADS"), "the full sample's, not doubled again");
    }

    @Test
    void fastRunsOverlayPolicyValuesOnTheLastFullSample() {
        SettableSource heap = new SettableSource("JVM_HEAP_USED%", 40);
        SettableSource threads = new SettableSource("JVM_THREADS", 12);
        AtomicLong clock = new AtomicLong(1000);
        Sampler sampler = new Sampler(List.of(heap), List.of(heap, threads, FAILING),
                () -> Map.of("jvm", "mxbean"), clock::get);
        assertSame(MetricsSnapshot.EMPTY, sampler.latest());
        assertNull(sampler.latest().orcaHeader(), "no header before the first sample");

        sampler.sampleFull();
        assertEquals(Map.of("JVM_HEAP_USED%", 40.0, "JVM_THREADS", 12.0), sampler.latest().metrics());
        assertEquals(1000, sampler.latest().timestampMillis());
        assertEquals("TEXT named_metrics.jvm_heap_used=0.4", sampler.latest().orcaHeader());

        heap.value = 90;
        threads.value = 99;
        clock.set(1100);
        sampler.sampleFast();
        MetricsSnapshot fast = sampler.latest();
        assertEquals(90.0, fast.metrics().get("JVM_HEAP_USED%"));
        assertEquals(12.0, fast.metrics().get("JVM_THREADS"), "slow metrics keep the last full value");
        assertEquals(1100, fast.timestampMillis());
        assertEquals(Map.of("jvm", "mxbean"), fast.sources());
        assertTrue(fast.orcaHeader().contains("jvm_heap_used=0.9"));
        assertEquals(1, threads.calls.get());
        assertFalse(fast.metrics().containsKey("OS_CPU_USED%"), "a failing source leaves its metrics absent");
    }

    @Test
    void backgroundThreadIsANamedDaemonAndStopsOnClose() throws Exception {
        CountDownLatch sampled = new CountDownLatch(3);
        String[] threadName = new String[1];
        boolean[] daemon = new boolean[1];
        MetricSource probe = new MetricSource() {
            @Override
            public MetricGroup group() {
                return MetricGroup.JVM;
            }

            @Override
            public void collect(MetricSink sink) {
                threadName[0] = Thread.currentThread().getName();
                daemon[0] = Thread.currentThread().isDaemon();
                sink.put("JVM_THREADS", 1);
                sampled.countDown();
            }
        };
        Sampler sampler = new Sampler(List.of(probe), List.of(probe), Map::of, System::currentTimeMillis);
        sampler.start(1000, 10);
        try {
            assertTrue(sampled.await(10, TimeUnit.SECONDS), "sampler did not run");
            assertEquals(Sampler.THREAD_NAME, threadName[0]);
            assertTrue(daemon[0]);
        } finally {
            sampler.close();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(Sampler.THREAD_NAME))) {
            assertTrue(System.nanoTime() < deadline, "sampler thread still alive after close()");
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // poll interval
        }
    }
}
