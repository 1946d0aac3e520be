package io.loadwise.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.loadwise.wire.SeedMetric;
import org.junit.jupiter.api.Test;

class PolicyMetricTest {

    /** The policies read exactly the names the agent writes: both come from {@link SeedMetric}. */
    @Test
    void everyPolicyMetricIsASeedMetricOnTheWire() {
        for (PolicyMetric metric : PolicyMetric.values()) {
            SeedMetric seed = SeedMetric.bySeedName(metric.seedName());
            assertNotNull(seed, metric.name());
            assertEquals(metric, PolicyMetric.bySeedName(seed.seedName()));
        }
        assertEquals("JVM_HEAP_USED%", PolicyMetric.JVM_HEAP_USED.seedName(), "the wire format itself");
    }
}
