package io.loadwise.agent.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.metric.MetricGroup;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.agent.sample.Sampler;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeaderGateTest {

    private static Sampler sampled() {
        MetricSource cpu = new MetricSource() {
            @Override
            public MetricGroup group() {
                return MetricGroup.OS;
            }

            @Override
            public void collect(io.loadwise.agent.metric.MetricSink sink) {
                sink.put("OS_CPU_USED%", 50);
            }
        };
        Sampler sampler = new Sampler(List.of(cpu), List.of(cpu), Map::of, () -> 1L);
        sampler.sampleFull();
        return sampler;
    }

    private static final long MS = 1_000_000L;

    @Test
    void attachesAtMostOncePerInterval() {
        HeaderGate gate = new HeaderGate(sampled(), 100);
        assertTrue(gate.usesClock());
        long t0 = 5_000 * MS;
        assertEquals("TEXT cpu_utilization=0.5", gate.valueToAttach(t0));
        assertNull(gate.valueToAttach(t0 + 1));
        assertNull(gate.valueToAttach(t0 + 99 * MS));
        assertEquals("TEXT cpu_utilization=0.5", gate.valueToAttach(t0 + 100 * MS));
        assertNull(gate.valueToAttach(t0 + 150 * MS));
    }

    @Test
    void zeroMeansEveryResponseAndMinusOneNever() {
        HeaderGate every = new HeaderGate(sampled(), 0);
        assertFalse(every.usesClock());
        for (int i = 0; i < 3; i++) {
            assertEquals("TEXT cpu_utilization=0.5", every.valueToAttach(0));
        }
        HeaderGate never = new HeaderGate(sampled(), -1);
        assertNull(never.valueToAttach(System.nanoTime()));
    }

    @Test
    void nothingBeforeTheFirstSampleAndTheIntervalDoesNotStartThen() {
        Sampler empty = new Sampler(List.of(), List.of(), Map::of, () -> 1L);
        HeaderGate gate = new HeaderGate(empty, 100);
        assertNull(gate.valueToAttach(10 * MS));
        // no header was sent, so the next response with a sample available gets one at once
        HeaderGate afterwards = new HeaderGate(sampled(), 100);
        assertEquals("TEXT cpu_utilization=0.5", afterwards.valueToAttach(10 * MS));
    }
}
