package io.loadwise.policy.builtin;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.NodeView;

/**
 * What one adaptive picker remembers for the next (carried through {@code newPicker(…, previous, …)}, as
 * Finagle's balancer reuses its nodes across rebuilds): per node, the agent sample it saw and since when,
 * whether the node was usable, and since when it ramps up.
 *
 * <p>The age of a sample is measured on the picker's own clock from the build that first saw it (the
 * same object), not from the sample's timestamp, which is the agent's wall clock and may be skewed. It
 * is therefore late by at most one rebuild interval, and the dispatcher rebuilds after every batch of
 * samples.
 *
 * <p>A node ramps up (slow start) when it joins a cluster that already had this policy, or when it was
 * unusable (down, disabled, draining) at the previous build and is usable now. A cluster that switches
 * to this policy, or starts with it, does not ramp: there is no warm node to protect it from.
 */
final class AdaptiveMemory {

    /** {@link #rampStartNanos} of a node that does not ramp. */
    static final long NOT_RAMPING = Long.MIN_VALUE;

    final String[] names;
    final AgentSample[] samples;
    final long[] sampleSeenNanos;
    /**
     * Per node whose sample says saturated: the work in flight it may hold, {@link AdaptiveCost#excluded}.
     * Estimated as the smaller of the live count at the build that first saw the sample and at the build
     * before: the sample was taken between those two builds (it arrives up to a poll period late), and
     * the smaller count errs towards less work.
     */
    final int[] activeAtSample;
    /** Per node: whether its sample says saturated (load 100). */
    final boolean[] saturated;
    /** Per node: its live work in flight at this build. */
    final int[] activeAtBuild;
    final boolean[] usable;
    final long[] rampStartNanos;

    private AdaptiveMemory(int size) {
        names = new String[size];
        samples = new AgentSample[size];
        sampleSeenNanos = new long[size];
        activeAtSample = new int[size];
        activeAtBuild = new int[size];
        saturated = new boolean[size];
        usable = new boolean[size];
        rampStartNanos = new long[size];
    }

    /** This build's memory, continuing {@code previous} (null when the previous picker was not adaptive). */
    static AdaptiveMemory of(ClusterSnapshot snapshot, AdaptiveMemory previous, long nowNanos, long slowStartNanos,
            JvmAwareLoad load) {
        AdaptiveMemory memory = new AdaptiveMemory(snapshot.size());
        for (int i = 0; i < snapshot.size(); i++) {
            NodeView node = snapshot.node(i);
            memory.names[i] = node.name();
            memory.samples[i] = node.agentSample();
            memory.usable[i] = node.usable();
            int before = previous == null ? -1 : previous.indexOf(node.name(), i);
            boolean sameSample = before >= 0 && previous.samples[before] == memory.samples[i];
            memory.sampleSeenNanos[i] = sameSample ? previous.sampleSeenNanos[before] : nowNanos;
            int active = node.activeConnections();
            memory.activeAtBuild[i] = active;
            memory.saturated[i] = load.load(memory.samples[i]) >= JvmAwareLoad.SATURATED;
            if (sameSample) {
                memory.activeAtSample[i] = previous.activeAtSample[before];
            } else if (before < 0) {
                memory.activeAtSample[i] = active;
            } else {
                memory.activeAtSample[i] = Math.min(active, previous.activeAtBuild[before]);
            }
            long ramp;
            if (previous == null || slowStartNanos == 0) {
                ramp = NOT_RAMPING;
            } else if (before < 0 || (!previous.usable[before] && memory.usable[i])) {
                ramp = nowNanos;
            } else {
                ramp = previous.rampStartNanos[before];
                if (ramp != NOT_RAMPING && nowNanos - ramp >= slowStartNanos) {
                    ramp = NOT_RAMPING;
                }
            }
            memory.rampStartNanos[i] = ramp;
        }
        return memory;
    }

    /** The index of the node named {@code name}, looked up first at {@code hint}; -1 when absent. */
    private int indexOf(String name, int hint) {
        if (hint < names.length && names[hint].equals(name)) {
            return hint;
        }
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
