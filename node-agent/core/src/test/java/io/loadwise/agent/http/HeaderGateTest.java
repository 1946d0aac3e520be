package io.loadwise.agent.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.agent.sample.Sampler;
import io.loadwise.wire.MetricGroup;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HeaderGateTest {

    private static final long MS = 1_000_000L;

    private static Sampler sampler(double... cpuValues) {
        AtomicLong next = new AtomicLong();
        MetricSource cpu = new MetricSource() {
            @Override
            public MetricGroup group() {
                return MetricGroup.OS;
            }

            @Override
            public void collect(MetricSink sink) {
                sink.put("OS_CPU_USED%", cpuValues[(int) Math.min(next.getAndIncrement(), cpuValues.length - 1)]);
            }
        };
        return new Sampler(List.of(cpu), List.of(cpu), Map::of, () -> 1L);
    }

    @Test
    void attachesEachSnapshotOnceAndAtMostOncePerInterval() {
        Sampler sampler = sampler(50, 60, 70);
        AtomicLong clock = new AtomicLong(5_000 * MS);
        HeaderGate gate = new HeaderGate(sampler, 100, clock::get);
        assertNull(gate.valueToAttach(), "nothing before the first sample");
        sampler.sampleFull();
        assertEquals("TEXT cpu_utilization=0.5", gate.valueToAttach());
        clock.addAndGet(500 * MS);
        assertNull(gate.valueToAttach(), "the same snapshot is not sent twice");

        sampler.sampleFast(); // 60 %, published 500 ms after the last header
        assertEquals("TEXT cpu_utilization=0.6", gate.valueToAttach());
        sampler.sampleFast(); // 70 %, published at once
        clock.addAndGet(99 * MS);
        assertNull(gate.valueToAttach(), "within 100 ms of the last header");
        clock.addAndGet(MS);
        assertEquals("TEXT cpu_utilization=0.7", gate.valueToAttach());
        assertNull(gate.valueToAttach());
    }

    @Test
    void zeroMeansEveryResponseAndMinusOneNever() {
        Sampler sampler = sampler(50);
        sampler.sampleFull();
        HeaderGate every = new HeaderGate(sampler, 0);
        for (int i = 0; i < 3; i++) {
            assertEquals("TEXT cpu_utilization=0.5", every.valueToAttach());
        }
        assertNull(new HeaderGate(sampler, -1).valueToAttach());
    }
}
