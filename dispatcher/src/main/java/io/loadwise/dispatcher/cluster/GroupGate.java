package io.loadwise.dispatcher.cluster;

/**
 * What {@link PriorityGroups} decided for one node at the latest picker rebuild, read by
 * {@link NodeState#usable()} on every pick (one volatile read).
 */
public enum GroupGate {
    /** Its group is active: the node is usable when enabled and healthy, as without groups. */
    ACTIVE,
    /** Its group is not needed (better groups have {@code minActive} usable nodes): never picked. */
    STANDBY,
    /** Its group is active and in panic: picked when enabled and accepting connections, whatever its health. */
    PANIC
}
