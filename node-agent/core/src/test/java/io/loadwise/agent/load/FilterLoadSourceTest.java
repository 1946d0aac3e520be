package io.loadwise.agent.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.wire.FilterMetric;
import io.loadwise.wire.OrcaLoadReport;
import io.loadwise.wire.SeedMetric;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FilterLoadSourceTest {

    private static final String BUSY = SeedMetric.AMX_CONNS_Q_THRBSY_PCT.seedName();
    private static final String QUEUE = SeedMetric.AMX_CONNS_Q_USED_PCT.seedName();

    private final AtomicLong millis = new AtomicLong();
    private final RequestRecorder recorder = new RequestRecorder(() -> millis.get() * 1_000_000L);

    private Set<String> serverMaps = Set.of();

    private FilterLoadSource source(int capacity, boolean standIn) {
        return new FilterLoadSource(recorder, millis::get, capacity, standIn, 2, () -> serverMaps);
    }

    private void begin(int n) {
        for (int i = 0; i < n; i++) {
            recorder.begin();
        }
    }

    @Test
    void standsInForTheQueueAndBusyInputsTheServerDoesNotReport() {
        FilterLoadSource source = source(10, true);
        begin(14);
        MetricSink sink = new MetricSink();
        source.collect(sink);
        assertEquals(14.0, sink.values().get(FilterMetric.APP_RQST_INFLIGHT.metricName()));
        assertEquals(10.0, sink.values().get(FilterMetric.APP_CAPACITY.metricName()));
        assertEquals(100.0, sink.values().get(BUSY), "capped at 100");
        assertEquals(40.0, sink.values().get(QUEUE), 1e-9, "4 requests beyond a capacity of 10");
    }

    @Test
    void theServersOwnFiguresWin() {
        serverMaps = Set.of(BUSY, QUEUE);
        FilterLoadSource source = source(10, true);
        begin(14);
        MetricSink sink = new MetricSink();
        sink.put(BUSY, 33);
        sink.put(QUEUE, 7);
        source.collect(sink);
        assertEquals(33.0, sink.values().get(BUSY));
        assertEquals(7.0, sink.values().get(QUEUE));
    }

    @Test
    void aMetricTheServerMapsStaysAbsentWhenItsMBeanIsMissing() {
        serverMaps = Set.of(QUEUE); // Tomcat maps its queue to a shared executor that may not exist
        FilterLoadSource source = source(10, true);
        begin(14);
        MetricSink sink = new MetricSink();
        source.collect(sink);
        assertFalse(sink.values().containsKey(QUEUE), "absent, never a stand-in the operator did not ask for");
        assertEquals(100.0, sink.values().get(BUSY));
    }

    @Test
    void theQueueCountsTheServersWaitingTasksAgainstTheCapacity() {
        serverMaps = Set.of(BUSY); // WildFly: busy workers mapped, an unbounded queue of waiting tasks
        FilterLoadSource source = source(0, true);
        begin(32);
        MetricSink full = new MetricSink();
        full.put(SeedMetric.AMX_CONNS_Q_THRDSMAX, 32);
        full.put(SeedMetric.AMX_CONNS_QD, 8);
        source.collect(full);
        assertEquals(25.0, full.values().get(QUEUE), 1e-9);
        MetricSink fast = new MetricSink();
        millis.addAndGet(100);
        source.collect(fast);
        assertEquals(25.0, fast.values().get(QUEUE), 1e-9, "the full sample's queue length until the next one");
    }

    @Test
    void capacityComesFromTheServersThreadMaximumAndIsKeptForTheFastSample() {
        FilterLoadSource source = source(0, true);
        begin(5);
        MetricSink full = new MetricSink();
        full.put(SeedMetric.AMX_CONNS_Q_THRDSMAX, 20);
        source.collect(full);
        assertEquals(25.0, full.values().get(BUSY), 1e-9);
        MetricSink fast = new MetricSink(); // the fast sample does not read the thread maximum
        millis.addAndGet(100);
        source.collect(fast);
        assertEquals(20.0, fast.values().get(FilterMetric.APP_CAPACITY.metricName()));
        assertEquals(0.0, fast.values().get(QUEUE));
    }

    @Test
    void withoutAnyCapacityItAssumesSixteenPerProcessor() {
        FilterLoadSource source = source(0, true);
        begin(8);
        MetricSink sink = new MetricSink();
        source.collect(sink);
        assertEquals(32.0, sink.values().get(FilterMetric.APP_CAPACITY.metricName()));
        assertEquals(25.0, sink.values().get(BUSY), 1e-9);
    }

    @Test
    void standInCanBeSwitchedOff() {
        FilterLoadSource source = source(10, false);
        begin(3);
        MetricSink sink = new MetricSink();
        source.collect(sink);
        assertFalse(sink.values().containsKey(BUSY));
        assertFalse(sink.values().containsKey(QUEUE));
        assertEquals(3.0, sink.values().get(FilterMetric.APP_RQST_INFLIGHT.metricName()));
    }

    /** ORCA's rps_fractional, eps and application_utilization: 20 requests of 100 ms in a second, 5 of them 500s. */
    @Test
    void reportsTheRequestRateErrorRateAndUtilizationOfTheLastSecond() {
        FilterLoadSource source = source(4, true);
        MetricSink idle = new MetricSink();
        source.collect(idle);
        assertFalse(idle.values().containsKey(OrcaLoadReport.APP_UTILIZATION), "nothing completed: absent, not 0");
        for (int i = 0; i < 20; i++) {
            long start = recorder.begin();
            millis.addAndGet(50);
            recorder.end(start - 50_000_000L, i % 4 == 0); // each ran 100 ms; the clock moves 1 s in all
        }
        MetricSink sink = new MetricSink();
        source.collect(sink);
        assertEquals(20.0, sink.values().get(FilterMetric.APP_RQST_RATE.metricName()), 1e-9);
        assertEquals(5.0, sink.values().get(FilterMetric.APP_RQST_ERR_RATE.metricName()), 1e-9);
        // 20/s x 0.1 s = 2 in flight on average, half of the capacity of 4
        assertEquals(50.0, sink.values().get(OrcaLoadReport.APP_UTILIZATION), 1e-9);
    }

    @Test
    void trafficTimeStartsWithTheFirstRequestTheSamplerSees() {
        FilterLoadSource source = source(10, true);
        source.collect(new MetricSink());
        assertEquals(-1, source.trafficMillis());
        millis.set(500);
        long start = recorder.begin();
        recorder.end(start);
        source.collect(new MetricSink());
        millis.set(2500);
        assertEquals(2000, source.trafficMillis());
    }
}
