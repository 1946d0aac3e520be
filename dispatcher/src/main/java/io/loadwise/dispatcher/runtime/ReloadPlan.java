package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.control.ReloadResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What it takes to go from the configuration in force to another, cluster by cluster, decided before
 * anything is touched (a pure function, tested on its own):
 * <ul>
 * <li>a cluster only in the new configuration is started; one only in the old is retired (drained);
 * <li>a cluster whose change is {@linkplain ClusterEdits#liveApplicable live-applicable} is changed in place;
 * <li>any other changed cluster is rebuilt and the old one retired.
 * </ul>
 * A cluster that needs a listener takes over the socket of a retired cluster with the same {@code listen} and
 * mode (its own former self first), so that socket never closes. The others bind a fresh socket, before
 * anything is retired when their address is free, and after its holder was retired when a retiring listener
 * of another mode holds it.
 */
final class ReloadPlan {

    private final LoadwiseConfig next;
    private final List<String> added = new ArrayList<>();
    private final List<String> removed = new ArrayList<>();
    private final List<String> replaced = new ArrayList<>();
    private final List<String> updated = new ArrayList<>();
    private final List<String> unchanged = new ArrayList<>();
    private final List<String> restartNeeded = new ArrayList<>();
    private final List<ClusterConfig[]> liveChanges = new ArrayList<>();
    private final List<ClusterConfig> freshBinds = new ArrayList<>();
    private final List<ClusterConfig> bindsAfterRetiring = new ArrayList<>();
    private final Map<ClusterConfig, String> takeOvers = new LinkedHashMap<>();
    private final Set<String> retired = new LinkedHashSet<>();

    private ReloadPlan(LoadwiseConfig next) {
        this.next = next;
    }

    static ReloadPlan between(LoadwiseConfig current, LoadwiseConfig next) {
        ReloadPlan plan = new ReloadPlan(next);
        Map<String, ClusterConfig> before = byName(current);
        Map<String, ClusterConfig> after = byName(next);
        List<ClusterConfig> needListener = new ArrayList<>();
        for (ClusterConfig cluster : next.clustersOrEmpty()) {
            ClusterConfig old = before.get(cluster.name());
            if (old == null) {
                plan.added.add(cluster.name());
                needListener.add(cluster);
            } else if (old.equals(cluster)) {
                plan.unchanged.add(cluster.name());
            } else if (ClusterEdits.liveApplicable(old, cluster)) {
                plan.updated.add(cluster.name());
                plan.liveChanges.add(new ClusterConfig[] {old, cluster});
            } else {
                plan.replaced.add(cluster.name());
                plan.retired.add(cluster.name());
                needListener.add(cluster);
            }
        }
        for (ClusterConfig old : current.clustersOrEmpty()) {
            if (!after.containsKey(old.name())) {
                plan.removed.add(old.name());
                plan.retired.add(old.name());
            }
        }
        Set<String> heirless = new LinkedHashSet<>(plan.retired);
        for (ClusterConfig cluster : needListener) {
            ClusterConfig self = before.get(cluster.name());
            String from = self != null && sameSocket(self, cluster) ? cluster.name() : null;
            for (String candidate : heirless) {
                if (from == null && !after.containsKey(candidate) && sameSocket(before.get(candidate), cluster)) {
                    from = candidate;
                }
            }
            if (from != null) {
                heirless.remove(from);
                plan.takeOvers.put(cluster, from);
            }
        }
        Set<String> heldByRetiring = new HashSet<>();
        for (String name : heirless) {
            heldByRetiring.add(before.get(name).listen());
        }
        for (ClusterConfig cluster : needListener) {
            if (!plan.takeOvers.containsKey(cluster)) {
                (heldByRetiring.contains(cluster.listen()) ? plan.bindsAfterRetiring : plan.freshBinds).add(cluster);
            }
        }
        plan.topLevel(current, next);
        return plan;
    }

    /**
     * A socket can be handed over between listeners of the same kind on the same configured address. An
     * address with port 0 is a new ephemeral port each time, so it is handed over too (that keeps the port).
     */
    private static boolean sameSocket(ClusterConfig a, ClusterConfig b) {
        return a.mode() == b.mode() && Objects.equals(a.listen(), b.listen());
    }

    private void topLevel(LoadwiseConfig current, LoadwiseConfig next) {
        if (!Objects.equals(current.admin(), next.admin())) {
            restartNeeded.add("admin");
        }
        if (!Objects.equals(current.logging(), next.logging())) {
            restartNeeded.add("logging");
        }
        if (!Objects.equals(current.maxClientConnections(), next.maxClientConnections())) {
            restartNeeded.add("maxClientConnections");
        }
        if (!Objects.equals(current.workerThreads(), next.workerThreads())) {
            restartNeeded.add("workerThreads");
        }
        if (!Objects.equals(current.transport(), next.transport())) {
            restartNeeded.add("transport");
        }
        if (!Objects.equals(current.config(), next.config())) {
            restartNeeded.add("config");
        }
        if (!Objects.equals(current.shutdownGraceMs(), next.shutdownGraceMs())) {
            restartNeeded.add("shutdownGraceMs"); // the SIGTERM handler took it at start
        }
        if (!Objects.equals(current.tracing(), next.tracing())) {
            restartNeeded.add("tracing"); // the exporter started with the process
        }
    }

    private static Map<String, ClusterConfig> byName(LoadwiseConfig config) {
        Map<String, ClusterConfig> map = new LinkedHashMap<>();
        for (ClusterConfig cluster : config.clustersOrEmpty()) {
            map.put(cluster.name(), cluster);
        }
        return map;
    }

    /** Clusters to start on a fresh socket before anything is retired; if one cannot bind, nothing changes. */
    List<ClusterConfig> freshBinds() {
        return freshBinds;
    }

    /** Clusters to start on the socket of the retired cluster named as the value. */
    Map<ClusterConfig, String> takeOvers() {
        return takeOvers;
    }

    /** Clusters to drain, in the order of the configuration in force. */
    Set<String> retired() {
        return retired;
    }

    List<String> removedNames() {
        return removed;
    }

    /** Clusters whose address a retired listener of another mode holds: bound once it is retired. */
    List<ClusterConfig> bindsAfterRetiring() {
        return bindsAfterRetiring;
    }

    /** {old, new} pairs applied in place. */
    List<ClusterConfig[]> liveChanges() {
        return liveChanges;
    }

    int indexInNext(String name) {
        List<ClusterConfig> list = next.clustersOrEmpty();
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    ReloadResult result(List<String> failed) {
        return new ReloadResult(added, removed, replaced, updated, unchanged, restartNeeded, failed);
    }
}
