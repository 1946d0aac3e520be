package io.loadwise.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The window's reads add the live bucket to the published sums of the nine before it; these cases hold
 * those reads to what a full scan of the recorded values says.
 */
class OneSecondWindowTest {

    private static final long MS = 1_000_000L;

    /**
     * Random values at a clock that moves forward by random steps (some inside a bucket, some across
     * several, some past the whole window), read after every write and compared with the values kept in a
     * plain list (with the ring's ten slots: a later bucket in a slot replaces the earlier one). Also read
     * at earlier times, as a thread whose clock lags does.
     */
    @Test
    void readsAgreeWithAFullScanOfTheRecordedValues() {
        SplittableRandom random = new SplittableRandom(16);
        OneSecondWindow window = new OneSecondWindow();
        List<long[]> recorded = new ArrayList<>(); // {nanos, value}
        long now = -3_000 * MS; // the clock may be negative, as System.nanoTime may
        for (int i = 0; i < 20_000; i++) {
            int step = random.nextInt(10);
            now += step < 6 ? random.nextLong(20 * MS) : step < 9 ? random.nextLong(400 * MS) : 1_500 * MS;
            long value = random.nextLong(1_000 * MS);
            window.add(now, value);
            recorded.add(new long[] {now, value});
            assertAgrees(window, recorded, now);
            if (random.nextInt(8) == 0) {
                assertAgrees(window, recorded, now - random.nextLong(1_200 * MS)); // a lagging reader
                assertAgrees(window, recorded, now); // and the current one again, after it republished
            }
        }
    }

    private static void assertAgrees(OneSecondWindow window, List<long[]> recorded, long readNanos) {
        long current = Math.floorDiv(readNanos, OneSecondWindow.BUCKET_NANOS);
        // The ring holds ten buckets: a value is still there if no later epoch has reused its slot.
        long[] latestInSlot = new long[OneSecondWindow.BUCKETS];
        java.util.Arrays.fill(latestInSlot, Long.MIN_VALUE);
        for (long[] r : recorded) {
            long epoch = Math.floorDiv(r[0], OneSecondWindow.BUCKET_NANOS);
            int slot = (int) Math.floorMod(epoch, OneSecondWindow.BUCKETS);
            latestInSlot[slot] = Math.max(latestInSlot[slot], epoch);
        }
        long sum = 0;
        long count = 0;
        for (long[] r : recorded) {
            long epoch = Math.floorDiv(r[0], OneSecondWindow.BUCKET_NANOS);
            boolean kept = latestInSlot[(int) Math.floorMod(epoch, OneSecondWindow.BUCKETS)] == epoch;
            if (kept && epoch <= current && current - epoch < OneSecondWindow.BUCKETS) {
                sum += r[1];
                count++;
            }
        }
        assertEquals(count, window.count(readNanos), "count at " + readNanos);
        if (count == 0) {
            assertTrue(Double.isNaN(window.mean(readNanos)), "no mean at " + readNanos);
        } else {
            assertEquals((double) sum / count, window.mean(readNanos), 1e-6, "mean at " + readNanos);
        }
    }

    /**
     * The one departure from a full scan, documented on the class: a value written into a finished bucket
     * after its sums were published is missed until the next bucket begins, and counted from then on.
     */
    @Test
    void aLateValueInAFinishedBucketCountsFromTheNextBucket() {
        OneSecondWindow window = new OneSecondWindow();
        long t = 10_000 * MS;
        window.add(t, 10);
        assertEquals(1, window.count(t + 100 * MS), "publishes the sums at the second bucket");
        window.add(t + 50 * MS, 30); // its writer read the clock before the boundary
        assertEquals(1, window.count(t + 150 * MS), "missed for the rest of this bucket");
        assertEquals(10.0, window.mean(t + 150 * MS), 1e-9);
        assertEquals(2, window.count(t + 200 * MS), "counted from the next bucket");
        assertEquals(20.0, window.mean(t + 200 * MS), 1e-9);
        assertEquals(0, window.count(t + 1_000 * MS), "and leaves with its bucket");
    }

    /**
     * Readers on several threads read at two bucket times in turn, so the published sums flip between two
     * publications all the time. Each bucket holds a different number of a different value, so a read that
     * mixed the sum of one publication with the count of the other, or took one publication for the other
     * bucket, shows as a count or mean off what a full scan gives.
     */
    @Test
    void concurrentReadersNeverSeeAMixedPublication() throws InterruptedException {
        OneSecondWindow window = new OneSecondWindow();
        // Epochs 1 to 10: a read at epoch 9 sees 1-9 (10 is later), one at epoch 10 sees 1-10.
        for (int bucket = 1; bucket <= 10; bucket++) {
            for (int i = 0; i < 100 + bucket * 10; i++) {
                window.add(bucket * 100 * MS + i, bucket + 1);
            }
        }
        long[] readTimes = {900 * MS, 1_000 * MS, 950 * MS, 1_050 * MS}; // epochs 9, 10, 9, 10
        long[] expectedCount = new long[readTimes.length];
        double[] expectedMean = new double[readTimes.length];
        for (int t = 0; t < readTimes.length; t++) {
            long epoch = readTimes[t] / (100 * MS);
            long sum = 0;
            for (long bucket = 1; bucket <= epoch; bucket++) {
                expectedCount[t] += 100 + bucket * 10;
                sum += (100 + bucket * 10) * (bucket + 1);
            }
            expectedMean[t] = (double) sum / expectedCount[t];
        }
        AtomicReference<String> wrong = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            int offset = r;
            readers.add(new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 200_000 && wrong.get() == null; i++) {
                    int t = (i + offset) % readTimes.length;
                    long count = window.count(readTimes[t]);
                    double mean = window.mean(readTimes[t]);
                    if (count != expectedCount[t] || Math.abs(mean - expectedMean[t]) > 1e-9) {
                        wrong.compareAndSet(null, "at " + readTimes[t] / MS + " ms: count " + count + " (expected "
                                + expectedCount[t] + "), mean " + mean + " (expected " + expectedMean[t] + ")");
                    }
                }
            }));
        }
        readers.forEach(Thread::start);
        start.countDown();
        for (Thread reader : readers) {
            reader.join();
        }
        assertEquals(null, wrong.get());
    }
}
