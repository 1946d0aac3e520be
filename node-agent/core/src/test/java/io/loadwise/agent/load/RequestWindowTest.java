package io.loadwise.agent.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The recorder and its last-second window on manual clocks. */
class RequestWindowTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final RequestRecorder recorder = new RequestRecorder(nanos::get);
    private final RequestWindow window = new RequestWindow(recorder);

    private void serve(int count, long millisEach) {
        for (int i = 0; i < count; i++) {
            long start = recorder.begin();
            nanos.addAndGet(millisEach * 1_000_000L);
            recorder.end(start);
        }
    }

    @Test
    void rateMeanAndP95OverTheLastSecond() {
        window.summarise(0);
        serve(90, 10);
        serve(10, 200);
        RequestWindow.Summary s = window.summarise(1000);
        assertEquals(100, s.completed());
        assertEquals(100.0, s.ratePerSecond(), 1e-9);
        assertEquals((90 * 10 + 10 * 200) / 100.0, s.meanMillis(), 1e-6);
        // the 95th of 100 sorted times is one of the ten 200 ms requests; its bucket is within 1/8
        assertEquals(200, s.p95Millis(), 200 / 8.0);
        assertEquals(0, s.inFlight());
    }

    @Test
    void errorRateAndUtilizationOverTheLastSecond() {
        window.summarise(0);
        for (int i = 0; i < 40; i++) {
            long start = recorder.begin();
            nanos.addAndGet(50_000_000L);
            recorder.end(start, i % 10 == 0); // 4 of the 40 failed
        }
        RequestWindow.Summary s = window.summarise(1000);
        assertEquals(4.0, s.errorRatePerSecond(), 1e-9);
        // 40 requests of 50 ms in a second: 2 in flight on average, a quarter of a capacity of 8
        assertEquals(0.25, s.utilization(8), 1e-9);
        assertTrue(Double.isNaN(window.summarise(2000).utilization(8)), "none completed: no utilization");
        assertEquals(0.0, window.summarise(3000).errorRatePerSecond());
    }

    @Test
    void requestsOlderThanASecondLeaveTheWindow() {
        window.summarise(0);
        serve(50, 1000);
        for (long t = 100; t <= 1000; t += 100) {
            window.summarise(t);
        }
        serve(5, 2);
        RequestWindow.Summary s = window.summarise(2000);
        assertEquals(5, s.completed(), "only the requests of the last second count");
        assertEquals(5.0, s.ratePerSecond(), 1e-9);
        assertEquals(2, s.p95Millis(), 0.25);
    }

    @Test
    void noCompletedRequestMeansNoTimesButAZeroRate() {
        window.summarise(0);
        RequestWindow.Summary s = window.summarise(1000);
        assertEquals(0.0, s.ratePerSecond());
        assertTrue(Double.isNaN(s.meanMillis()) && Double.isNaN(s.p95Millis()));
    }

    @Test
    void inFlightCountsRequestsThatHaveBegunButNotEnded() {
        long a = recorder.begin();
        recorder.begin();
        assertEquals(2, window.summarise(0).inFlight());
        recorder.end(a);
        assertEquals(1, window.summarise(100).inFlight());
    }

    @Test
    void firstSampleHasNoRateYet() {
        serve(3, 1);
        assertTrue(Double.isNaN(window.summarise(0).ratePerSecond()), "no time has passed to divide by");
    }
}
