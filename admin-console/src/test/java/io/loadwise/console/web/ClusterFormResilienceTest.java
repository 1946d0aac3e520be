package io.loadwise.console.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.HealthCheckConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.config.OutlierDetectionConfig;
import io.loadwise.dispatcher.config.RegistrationConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cluster form does not show health checks, outlier detection, slow start, queueing or retries: an edit
 * keeps them.
 */
class ClusterFormResilienceTest {

    private static final HealthCheckConfig READY = new HealthCheckConfig("/ready", null, null, null, null, null);

    private static ClusterConfig cluster() {
        return ClusterConfig.builder().name("web").mode(Mode.HTTP).listen("127.0.0.1:8080").policy("round-robin")
                .healthCheck(new HealthCheckConfig("/health", 2000, 1000, 2, 3, null))
                .outlierDetection(new OutlierDetectionConfig(5, 3, 30_000, 50, null)).slowStartMs(10_000)
                .queueTimeoutMs(2_000).maxQueue(50).retryBudgetPercent(10).retryOn(List.of("reset"))
                .registration(new RegistrationConfig(true, List.of("10.0.0.0/8"), null, null))
                .nodes(List.of(new NodeConfig("a", "127.0.0.1:9001", null, null, null, null, READY, 8,
                                List.of("/shop")),
                        new NodeConfig("b", "127.0.0.1:9002", null, null, null, null)))
                .build();
    }

    @Test
    void anEditKeepsTheClustersAndTheNodesSettings() {
        ClusterConfig before = cluster();
        ClusterConfig after = ClusterForm.of(before).build(before);
        assertEquals(before.healthCheck(), after.healthCheck());
        assertEquals(before.outlierDetection(), after.outlierDetection());
        assertEquals(10_000, after.slowStartMsOrDefault());
        assertEquals(READY, after.nodes().get(0).healthCheck(), "the node's override survives the form");
        assertNull(after.nodes().get(1).healthCheck());
        assertEquals(8, after.nodes().get(0).maxConnectionsOrDefault(), "the node's maxConnections survives the form");
        assertEquals(2_000, after.queueTimeoutMsOrDefault());
        assertEquals(50, after.maxQueueOrDefault());
        assertEquals(10, after.retryBudgetPercentOrDefault());
        assertEquals(List.of("reset"), after.retryOn(), "retryOn survives the form");
        assertEquals(List.of("/shop"), after.nodes().get(0).contexts(), "the node's contexts survive the form");
        assertEquals(before.registration(), after.registration());
    }

    @Test
    void switchingToTcpDropsOutlierDetectionWhichIsHttpOnly() {
        ClusterConfig before = cluster();
        ClusterForm form = ClusterForm.of(before);
        form.values.put("mode", "tcp");
        ClusterConfig after = form.build(before);
        assertNull(after.outlierDetection());
        assertNull(after.queueTimeoutMs(), "queueing is http only");
        assertNull(after.retryBudgetPercent());
        assertNull(after.retryOn(), "retryOn is http only");
        assertNull(after.nodes().get(0).maxConnections());
        assertNull(after.nodes().get(0).contexts(), "routing by context is http only");
        assertNull(after.registration());
        assertEquals(before.healthCheck(), after.healthCheck(), "a TCP cluster may have health checks");
    }
}
