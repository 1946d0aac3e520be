package io.loadwise.agent.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ServiceTimeBucketsTest {

    @Test
    void everyValueFallsInsideItsBucketAndBucketsAreContiguous() {
        for (int i = 0; i + 1 < ServiceTimeBuckets.COUNT; i++) {
            assertEquals(ServiceTimeBuckets.upperBound(i), ServiceTimeBuckets.lowerBound(i + 1), "gap after bucket " + i);
        }
        long[] samples = {0, 1, 7, 8, 9, 15, 16, 17, 999, 1000, 1023, 1024, 123_456, 60_000_000L, (1L << 35) + 5};
        for (long v : samples) {
            int i = ServiceTimeBuckets.index(v);
            assertTrue(ServiceTimeBuckets.lowerBound(i) <= v && v < ServiceTimeBuckets.upperBound(i), v + " in bucket " + i);
        }
    }

    @Test
    void bucketsAreAtMostAnEighthOfTheirValueWide() {
        for (int i = 8; i < ServiceTimeBuckets.COUNT; i++) {
            long width = ServiceTimeBuckets.upperBound(i) - ServiceTimeBuckets.lowerBound(i);
            assertTrue(width * 8 <= ServiceTimeBuckets.lowerBound(i), "bucket " + i);
        }
    }

    @Test
    void outOfRangeValuesAreClampedNotLost() {
        assertEquals(0, ServiceTimeBuckets.index(-5));
        assertEquals(ServiceTimeBuckets.COUNT - 1, ServiceTimeBuckets.index(Long.MAX_VALUE));
    }
}
