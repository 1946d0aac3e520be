package io.loadwise.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.wire.FilterMetric;
import io.loadwise.wire.GcMetric;
import io.loadwise.wire.OrcaLoadReport;
import io.loadwise.wire.SeedMetric;
import org.junit.jupiter.api.Test;

class PolicyMetricTest {

    /** The policies read exactly the names the agent writes: both come from the wire module. */
    @Test
    void everyPolicyMetricIsAMetricOnTheWire() {
        for (PolicyMetric metric : PolicyMetric.values()) {
            String name = metric.seedName();
            boolean known = SeedMetric.bySeedName(name) != null || FilterMetric.byName(name) != null
                    || GcMetric.byName(name) != null || name.equals(OrcaLoadReport.APP_UTILIZATION);
            assertTrue(known, metric.name());
            assertEquals(metric, PolicyMetric.bySeedName(name));
        }
        assertNotNull(PolicyMetric.bySeedName("APP_RQST_RATE"));
        assertEquals("JVM_HEAP_USED%", PolicyMetric.JVM_HEAP_USED.seedName(), "the wire format itself");
    }
}
