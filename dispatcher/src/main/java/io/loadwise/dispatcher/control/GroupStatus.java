package io.loadwise.dispatcher.control;

/**
 * A cluster's priority groups and panic state as last judged (at the latest picker rebuild).
 *
 * @param activePriority the priority of the least preferred group in use: 0 while the preferred group has
 *     {@code minActive} usable nodes in a cluster without other priorities; the backup group counts as the
 *     largest configured priority plus 1
 * @param backupActive whether the backup group is in use
 * @param panic whether an active group has fewer than {@code panicThresholdPercent} of its nodes usable while
 *     the groups together fall short, so its nodes are picked when they accept connections, healthy or not
 * @param usableNodes enabled, not draining, healthy nodes in the active groups
 * @param activeNodes enabled, not draining nodes in the active groups
 */
public record GroupStatus(int activePriority, boolean backupActive, boolean panic, int usableNodes,
        int activeNodes) {
}
