package io.loadwise.policy.builtin;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.ClusterSnapshot;
import java.util.HashMap;
import java.util.Map;

/**
 * What orca-wrr remembers of each node between picker builds, as gRPC's weighted round robin keeps it per
 * endpoint: the last weight reported, when it was reported, and since when the node has reported without a
 * break. Immutable: each build makes a new memory from the previous one and the snapshot, off the pick path.
 *
 * <p>A report is a new {@link AgentSample} object on the node (the dispatcher makes one per poll and per
 * piggybacked header); the build time stands for its arrival time, since builds follow each batch of
 * samples. A node whose sample the cluster's agent expiry hides keeps its last weight until the weight
 * expires, as in gRPC, where a silent endpoint keeps its weight for {@code weight_expiration_period}.
 * Holds one entry per node of the current snapshot: nothing of a removed node survives a build.
 */
final class OrcaWeightMemory {

    /** "Never": no report yet, or the blackout must start again. */
    static final long NEVER = Long.MIN_VALUE;

    private final String[] names;
    private final AgentSample[] lastSamples;
    private final double[] reportedWeights;
    private final long[] lastUpdateNanos;
    private final long[] nonEmptySinceNanos;
    /** The weight each node has now: its reported weight after blackout and expiry, or 0 for none. */
    final double[] weights;

    private OrcaWeightMemory(int size) {
        names = new String[size];
        lastSamples = new AgentSample[size];
        reportedWeights = new double[size];
        lastUpdateNanos = new long[size];
        nonEmptySinceNanos = new long[size];
        weights = new double[size];
    }

    /** The memory as of {@code nowNanos}: {@code previous} (or nothing) updated with the nodes' reports. */
    static OrcaWeightMemory of(ClusterSnapshot snapshot, OrcaWeightMemory previous, long nowNanos, OrcaWeights rules) {
        OrcaWeightMemory memory = new OrcaWeightMemory(snapshot.size());
        Map<String, Integer> before = new HashMap<>();
        for (int i = 0; previous != null && i < previous.names.length; i++) {
            before.put(previous.names[i], i);
        }
        for (int i = 0; i < snapshot.size(); i++) {
            String name = snapshot.node(i).name();
            memory.names[i] = name;
            Integer p = before.get(name);
            if (p == null) {
                memory.lastUpdateNanos[i] = NEVER;
                memory.nonEmptySinceNanos[i] = NEVER;
            } else {
                memory.lastSamples[i] = previous.lastSamples[p];
                memory.reportedWeights[i] = previous.reportedWeights[p];
                memory.lastUpdateNanos[i] = previous.lastUpdateNanos[p];
                memory.nonEmptySinceNanos[i] = previous.nonEmptySinceNanos[p];
            }
            memory.update(i, snapshot.node(i).agentSample(), nowNanos, rules);
        }
        return memory;
    }

    private void update(int i, AgentSample sample, long now, OrcaWeights rules) {
        if (sample != null && sample != lastSamples[i]) {
            lastSamples[i] = sample;
            double reported = rules.reported(sample);
            if (reported > 0) { // a report without a weight changes nothing, not even the time of the last one
                nonEmptySinceNanos[i] = nonEmptySinceNanos[i] == NEVER ? now : nonEmptySinceNanos[i];
                lastUpdateNanos[i] = now;
                reportedWeights[i] = reported;
            }
        }
        if (lastUpdateNanos[i] == NEVER || now - lastUpdateNanos[i] >= rules.expirationNanos()) {
            nonEmptySinceNanos[i] = NEVER; // expired: a report after this starts a new blackout
            weights[i] = 0;
        } else if (rules.blackoutNanos() > 0 && now - nonEmptySinceNanos[i] < rules.blackoutNanos()) {
            weights[i] = 0;
        } else {
            weights[i] = reportedWeights[i];
        }
    }
}
