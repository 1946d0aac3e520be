package io.loadwise.dispatcher.cluster;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.NodeConfig;
import java.util.Arrays;
import java.util.List;

/**
 * A cluster's priority groups (F5 priority group activation, HAProxy {@code backup}) and its panic threshold
 * (Envoy's): which nodes a picker may return. Built from the configuration; {@link #decide} runs when the
 * picker is rebuilt (health, connect failures, operator changes), never on a pick, and its verdict reaches
 * the policies through each node's {@link GroupGate}, so every policy picks only within the active groups
 * without knowing about them.
 *
 * <p>Groups are walked from the preferred one (lowest {@code priority}; backup nodes form the last group):
 * a group is active while fewer than {@code minActive} nodes of the groups before it are usable. When no
 * group reaches it, every group is active.
 *
 * <p>Panic follows Envoy's rule for priority levels: it is disregarded while the groups' usable shares add
 * up to 100 % or more (spare groups can take the load; Envoy's 1.4 overprovisioning factor is left out);
 * otherwise an active group with fewer than {@code panicThresholdPercent} of its nodes usable panics, and
 * its nodes are picked when they accept connections, healthy or not. Disabled and draining nodes count in no
 * group: the operator took them out, and they never take new work.
 */
public final class PriorityGroups {

    /** Priority of the nodes of a cluster without priorities: one group. */
    public static final int DEFAULT_PRIORITY = 0;

    /** Per node index: its group's position, 0 for the preferred group. */
    private final int[] groupOf;
    /** Per group: the priority shown to operators (backup: the largest configured priority plus 1). */
    private final int[] priorities;
    private final boolean hasBackup;
    private final int minActive;
    private final int panicThresholdPercent;

    PriorityGroups(int[] nodePriorities, boolean[] backup, int minActive, int panicThresholdPercent) {
        int maxPriority = DEFAULT_PRIORITY;
        boolean anyBackup = false;
        for (int i = 0; i < nodePriorities.length; i++) {
            anyBackup |= backup[i];
            maxPriority = backup[i] ? maxPriority : Math.max(maxPriority, nodePriorities[i]);
        }
        long[] effective = new long[nodePriorities.length];
        for (int i = 0; i < effective.length; i++) {
            effective[i] = backup[i] ? (long) maxPriority + 1 : nodePriorities[i];
        }
        long[] distinct = Arrays.stream(effective).distinct().sorted().toArray();
        this.groupOf = new int[effective.length];
        for (int i = 0; i < effective.length; i++) {
            groupOf[i] = Arrays.binarySearch(distinct, effective[i]);
        }
        this.priorities = new int[distinct.length];
        for (int g = 0; g < distinct.length; g++) {
            priorities[g] = (int) Math.min(Integer.MAX_VALUE, distinct[g]);
        }
        this.hasBackup = anyBackup;
        this.minActive = minActive;
        this.panicThresholdPercent = panicThresholdPercent;
    }

    /** The groups of a validated cluster configuration. */
    public static PriorityGroups of(ClusterConfig config) {
        List<NodeConfig> nodes = config.nodesOrEmpty();
        int[] priorities = new int[nodes.size()];
        boolean[] backup = new boolean[nodes.size()];
        for (int i = 0; i < priorities.length; i++) {
            priorities[i] = nodes.get(i).priorityOrDefault();
            backup[i] = nodes.get(i).backupOrDefault();
        }
        return new PriorityGroups(priorities, backup, config.minActiveOrDefault(),
                config.panicThresholdPercentOrDefault());
    }

    /** Whether the cluster has more than one group (some node has another priority, or is a backup). */
    public boolean grouped() {
        return priorities.length > 1;
    }

    /**
     * Decides the active groups and the panic state for the nodes' current flags.
     *
     * @param counted per node index: enabled and not draining (it counts in its group)
     * @param usable per node index: counted, and healthy
     */
    Verdict decide(boolean[] counted, boolean[] usable) {
        int groups = priorities.length;
        int[] members = new int[groups];
        int[] usableIn = new int[groups];
        for (int i = 0; i < groupOf.length; i++) {
            members[groupOf[i]] += counted[i] ? 1 : 0;
            usableIn[groupOf[i]] += counted[i] && usable[i] ? 1 : 0;
        }
        int active = 0; // groups 0..active are active
        int usableSoFar = usableIn[0];
        while (usableSoFar < minActive && active < groups - 1) {
            usableSoFar += usableIn[++active];
        }
        boolean[] panics = panicking(members, usableIn, active);
        GroupGate[] gates = new GroupGate[groupOf.length];
        boolean panic = false;
        for (int i = 0; i < gates.length; i++) {
            int g = groupOf[i];
            gates[i] = g > active ? GroupGate.STANDBY : panics[g] ? GroupGate.PANIC : GroupGate.ACTIVE;
            panic |= panics[g];
        }
        int usableActive = 0;
        int membersActive = 0;
        for (int g = 0; g <= active; g++) {
            usableActive += usableIn[g];
            membersActive += members[g];
        }
        return new Verdict(priorities[active], hasBackup && active == groups - 1, panic, usableActive,
                membersActive, gates);
    }

    /** Per group: whether it panics (only active groups, and only when the groups' shares fall short). */
    private boolean[] panicking(int[] members, int[] usableIn, int active) {
        boolean[] panics = new boolean[members.length];
        if (panicThresholdPercent == 0) {
            return panics;
        }
        double shares = 0; // Envoy's normalized total availability; a group without counted nodes adds nothing
        for (int g = 0; g < members.length; g++) {
            shares += members[g] == 0 ? 0 : (double) usableIn[g] / members[g];
        }
        if (shares >= 1 - 1e-9) {
            return panics;
        }
        for (int g = 0; g <= active; g++) {
            panics[g] = members[g] > 0 && (long) usableIn[g] * 100 < (long) panicThresholdPercent * members[g];
        }
        return panics;
    }

    /** Same groups, same minActive, same threshold: a configuration change that leaves picks as they are. */
    @Override
    public boolean equals(Object o) {
        return o instanceof PriorityGroups other && Arrays.equals(groupOf, other.groupOf)
                && Arrays.equals(priorities, other.priorities) && hasBackup == other.hasBackup
                && minActive == other.minActive && panicThresholdPercent == other.panicThresholdPercent;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(groupOf) * 31 + Arrays.hashCode(priorities) + minActive * 7 + panicThresholdPercent;
    }

    /**
     * The outcome of one {@link #decide}.
     *
     * @param activePriority the priority of the least preferred active group (what a group switch changes)
     * @param backupActive whether the backup group is active
     * @param panic whether some active group panics
     * @param usableNodes usable nodes in the active groups
     * @param countedNodes enabled, not draining nodes in the active groups
     * @param gates per node index
     */
    public record Verdict(int activePriority, boolean backupActive, boolean panic, int usableNodes,
            int countedNodes, GroupGate[] gates) {
    }
}
