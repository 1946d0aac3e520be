package io.loadwise.dispatcher.cluster;

import io.loadwise.dispatcher.config.ClusterConfig;
import java.util.List;

/**
 * A cluster's priority groups and panic threshold in force, applied to its nodes before each picker rebuild
 * ({@link #apply}): every node's {@link GroupGate} is set, so the policy sees only the active groups. The latest
 * verdict is kept for status and metrics. Used under the cluster's lock, read without it.
 */
final class GroupGates {

    /** The priority groups and panic threshold in force; replaced with the configuration. */
    private volatile PriorityGroups groups;
    /** The latest verdict, for status and metrics; {@code null} before the first, and in a cluster without nodes. */
    private volatile PriorityGroups.Verdict verdict;

    GroupGates(ClusterConfig config) {
        this.groups = PriorityGroups.of(config);
    }

    /** Takes the groups of {@code changed}; whether they differ from those of {@code old} (then re-apply). */
    boolean reconfigure(ClusterConfig old, ClusterConfig changed) {
        PriorityGroups next = PriorityGroups.of(changed);
        if (PriorityGroups.of(old).equals(next)) {
            return false;
        }
        groups = next;
        return true;
    }

    /**
     * Judges the groups and the panic threshold on the nodes' current flags and sets each node's gate. A group
     * switch and entering or leaving panic are logged once, when they happen.
     */
    void apply(List<NodeState> nodes, ClusterConfig config) {
        if (nodes.isEmpty()) {
            return;
        }
        boolean[] counted = new boolean[nodes.size()];
        boolean[] usable = new boolean[nodes.size()];
        for (int i = 0; i < counted.length; i++) {
            counted[i] = nodes.get(i).enabled();
            usable[i] = nodes.get(i).inService();
        }
        PriorityGroups.Verdict next = groups.decide(counted, usable);
        for (int i = 0; i < counted.length; i++) {
            nodes.get(i).setGate(next.gates()[i]);
        }
        PriorityGroups.Verdict previous = verdict;
        verdict = next;
        GroupLog.changed(config.name(), previous, next, config);
    }

    PriorityGroups.Verdict verdict() {
        return verdict;
    }
}
