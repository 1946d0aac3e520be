package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.console.testing.ApiClient;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A replica of a shared store labels every Prometheus series with {@code replica}; alone it adds nothing. */
class PrometheusReplicaLabelTest extends ApiTestBase {

    @Test
    void everySeriesCarriesTheReplicaLabel() {
        assertFalse(api.get("/metrics").body().contains("replica="), "no label with the file store");

        control.setReplica("lb1", List::of);
        ApiClient.Response response = api.get("/metrics");

        assertEquals(200, response.status());
        List<String> samples = response.body().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        assertFalse(samples.isEmpty());
        for (String sample : samples) {
            assertTrue(sample.contains("{replica=\"lb1\""), sample);
        }
    }
}
