package io.loadwise.dispatcher.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.control.ReloadResult;
import io.loadwise.dispatcher.testsupport.Configs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which cluster starts, drains, changes in place, or takes over whose socket. */
class ReloadPlanTest {

    private static ClusterConfig tcp(String name, String listen, String... nodes) {
        return Configs.tcp(name, "round-robin", Configs.nodes(nodes)).toBuilder().listen(listen).build();
    }

    @Test
    void classifiesEveryCluster() {
        LoadwiseConfig before = Configs.config(tcp("same", ":1", "h:1"), tcp("live", ":2", "h:1"),
                tcp("nodes", ":3", "h:1"), tcp("moved", ":4", "h:1"), tcp("gone", ":5", "h:1"));
        LoadwiseConfig after = Configs.config(tcp("same", ":1", "h:1"),
                tcp("live", ":2", "h:1").toBuilder().policy("random").build(), tcp("nodes", ":3", "h:1", "h:2"),
                tcp("moved", ":14", "h:1"), tcp("renamed", ":5", "h:1"));

        ReloadPlan plan = ReloadPlan.between(before, after);
        ReloadResult result = plan.result(List.of());

        assertEquals(List.of("same"), result.unchanged());
        assertEquals(List.of("live"), result.updated());
        assertEquals(List.of("nodes", "moved"), result.replaced());
        assertEquals(List.of("renamed"), result.added());
        assertEquals(List.of("gone"), result.removed());
        assertEquals(Map.of(after.clusters().get(2), "nodes", after.clusters().get(4), "gone"), plan.takeOvers());
        assertEquals(List.of(after.clusters().get(3)), plan.freshBinds(), "a moved cluster binds before draining");
        assertEquals(List.of(), plan.bindsAfterRetiring());
    }

    @Test
    void aModeChangeOnTheSameAddressBindsAfterTheOldListenerLeft() {
        LoadwiseConfig before = Configs.config(tcp("web", ":1", "h:1"));
        ClusterConfig http = tcp("web", ":1", "h:1").toBuilder().mode(Mode.HTTP).build();
        ReloadPlan plan = ReloadPlan.between(before, Configs.config(http));
        assertEquals(Map.of(), plan.takeOvers());
        assertEquals(List.of(), plan.freshBinds());
        assertEquals(List.of(http), plan.bindsAfterRetiring());
    }

    @Test
    void topLevelChangesNeedARestart() {
        LoadwiseConfig before = Configs.config(tcp("web", ":1", "h:1"));
        LoadwiseConfig after = new LoadwiseConfig(before.admin(), null, 100, 2, before.clusters());
        assertEquals(List.of("maxClientConnections", "workerThreads"),
                ReloadPlan.between(before, after).result(List.of()).restartNeeded());
    }

    @Test
    void aNewShutdownGraceNeedsARestart() {
        LoadwiseConfig before = Configs.config(tcp("web", ":1", "h:1"));
        LoadwiseConfig after = new LoadwiseConfig(before.admin(), null, null, null, before.clusters(), null, 2_000);
        assertEquals(List.of("shutdownGraceMs"), ReloadPlan.between(before, after).result(List.of()).restartNeeded());
    }

    @Test
    void anotherTransportNeedsARestart() {
        LoadwiseConfig before = Configs.config(tcp("web", ":1", "h:1"));
        LoadwiseConfig after = new LoadwiseConfig(before.admin(), null, null, null, "io_uring", before.clusters(), null,
                null);
        assertEquals(List.of("transport"), ReloadPlan.between(before, after).result(List.of()).restartNeeded());
    }
}
