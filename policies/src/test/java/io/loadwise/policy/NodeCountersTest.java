package io.loadwise.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class NodeCountersTest {

    private static final long MS = 1_000_000L;

    private final NodeCounters counters = new NodeCounters();

    @Test
    void countsAssignmentsAndRequestsSeparately() {
        counters.assignmentStarted();
        counters.assignmentStarted();
        counters.requestSent();
        assertEquals(2, counters.activeConnections());
        assertEquals(1, counters.inFlightRequests());

        counters.assignmentEnded();
        counters.requestEnded(0, 5 * MS);
        assertEquals(1, counters.activeConnections());
        assertEquals(0, counters.inFlightRequests());
    }

    @Test
    void noResponseTimeBeforeAnyRequestEnded() {
        assertTrue(Double.isNaN(counters.recentResponseTimeMillis(0)));
        assertTrue(Double.isNaN(counters.recentResponseTimeMillis(12_345 * MS)));
    }

    @Test
    void aFailedRequestLeavesFlightButRecordsNoTime() {
        counters.requestSent();
        counters.requestEnded(1_000 * MS, -1);
        assertEquals(0, counters.inFlightRequests());
        assertTrue(Double.isNaN(counters.recentResponseTimeMillis(1_000 * MS)));
    }

    @Test
    void meanOfTheRequestsThatEndedInTheLastSecond() {
        long t = 5_000 * MS;
        end(t, 10);
        end(t + 50 * MS, 20);
        end(t + 450 * MS, 60);
        assertEquals(30.0, counters.recentResponseTimeMillis(t + 500 * MS), 1e-9);
    }

    @Test
    void aBucketLeavesTheWindowTenBucketsLater() {
        long t = 7_000 * MS;
        end(t, 10);
        end(t + 300 * MS, 30);
        assertEquals(20.0, counters.recentResponseTimeMillis(t + 999 * MS), 1e-9, "both still inside");
        assertEquals(30.0, counters.recentResponseTimeMillis(t + 1_000 * MS), 1e-9, "the first bucket expired");
        assertTrue(Double.isNaN(counters.recentResponseTimeMillis(t + 1_300 * MS)), "both expired");
    }

    @Test
    void aReusedBucketForgetsItsOldSamples() {
        long t = 3_000 * MS;
        end(t, 100);
        end(t + 1_000 * MS, 4); // same bucket slot, ten buckets later
        assertEquals(4.0, counters.recentResponseTimeMillis(t + 1_000 * MS), 1e-9);
    }

    @Test
    void worksWithANegativeClock() {
        long t = -2_050 * MS; // System.nanoTime() may be negative
        end(t, 8);
        end(t + 100 * MS, 12);
        assertEquals(10.0, counters.recentResponseTimeMillis(t + 200 * MS), 1e-9);
        assertTrue(Double.isNaN(counters.recentResponseTimeMillis(t + 1_200 * MS)));
    }

    @Test
    void concurrentUpdatesLoseNoCount() throws InterruptedException {
        int perThread = 20_000;
        Thread[] writers = new Thread[8];
        for (int t = 0; t < writers.length; t++) {
            writers[t] = new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    counters.assignmentStarted();
                    counters.requestSent();
                }
            });
            writers[t].start();
        }
        for (Thread writer : writers) {
            writer.join(30_000);
        }
        assertEquals(writers.length * perThread, counters.activeConnections());
        assertEquals(writers.length * perThread, counters.inFlightRequests());
    }

    /** Pickers read these on every pick, and event loops write them on every request. */
    @Test
    void readingAndUpdatingAllocateNothing() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "needs HotSpot's per-thread allocation counter");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        int rounds = 20_000;
        exercise(rounds); // warm up: class loading and the first compilation allocate
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        double sink = exercise(rounds);
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertTrue(sink > 0);
        // A single stray object per round would be >= 16 bytes, i.e. hundreds of kB here.
        assertTrue(allocated < 4096, "allocated " + allocated + " bytes in " + rounds + " rounds");
    }

    private double exercise(int rounds) {
        double sum = 0;
        for (int i = 0; i < rounds; i++) {
            long now = i * 7 * MS;
            counters.assignmentStarted();
            counters.requestSent();
            counters.requestEnded(now, 3 * MS);
            counters.requestFailed(now);
            counters.assignmentEnded();
            sum += counters.activeConnections() + counters.inFlightRequests() + counters.recentResponseTimeMillis(now)
                    + counters.recentFailures(now);
        }
        return sum;
    }

    private void end(long nowNanos, long runningMillis) {
        counters.requestSent();
        counters.requestEnded(nowNanos, runningMillis * MS);
    }

    @Test
    void failuresAreCountedPerSecondAndLeaveTheWindow() {
        long t = 9_000 * MS;
        assertEquals(0, counters.recentFailures(t));
        counters.requestFailed(t);
        counters.requestFailed(t + 10 * MS);
        counters.requestFailed(t + 400 * MS);
        assertEquals(3, counters.recentFailures(t + 500 * MS));
        assertEquals(1, counters.recentFailures(t + 1_000 * MS), "the first bucket expired");
        assertEquals(0, counters.recentFailures(t + 1_400 * MS), "all expired");
        counters.requestFailed(t + 2_000 * MS); // the first bucket's slot, twenty buckets later
        assertEquals(1, counters.recentFailures(t + 2_000 * MS), "a reused bucket forgets its old count");
    }

    @Test
    void aFailureIsCountedApartFromFlightAndTime() {
        counters.requestSent();
        counters.requestFailed(1_000 * MS);
        counters.requestEnded(1_000 * MS, -1);
        assertEquals(0, counters.inFlightRequests());
        assertEquals(1, counters.recentFailures(1_000 * MS));
        assertTrue(Double.isNaN(counters.recentResponseTimeMillis(1_000 * MS)));
    }

    /** The window both the response times and the failures are kept in. */
    @Test
    void theOneSecondWindowRollsBucketsOverAndDropsValuesOlderThanASecond() {
        OneSecondWindow window = new OneSecondWindow();
        long t = 4_000 * MS;
        window.add(t, 10);
        window.add(t + 99 * MS, 20); // same bucket
        window.add(t + 100 * MS, 60); // the next one
        assertEquals(3, window.count(t + 100 * MS));
        assertEquals(30.0, window.mean(t + 100 * MS), 1e-9);
        assertEquals(3, window.count(t + 999 * MS), "all inside the second");
        assertEquals(1, window.count(t + 1_000 * MS), "the first bucket is a second old");
        assertEquals(60.0, window.mean(t + 1_000 * MS), 1e-9);
        assertEquals(0, window.count(t + 1_100 * MS), "both buckets are");
        assertTrue(Double.isNaN(window.mean(t + 1_100 * MS)));

        window.add(t + 1_050 * MS, 7); // the first bucket's slot, ten buckets later: its old values go
        assertEquals(2, window.count(t + 1_050 * MS), "7, and 60 of the second bucket");
        assertEquals(33.5, window.mean(t + 1_050 * MS), 1e-9);
        assertEquals(1, window.count(t + 1_150 * MS));
        assertEquals(7.0, window.mean(t + 1_150 * MS), 1e-9);
        assertEquals(1, window.count(t + 500 * MS), "a bucket later than the time read is not counted");
        assertEquals(60.0, window.mean(t + 500 * MS), 1e-9);
    }
}
