package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import java.util.ArrayList;
import java.util.List;

/** The last {@code capacity} snapshots of one cluster or node, oldest dropped first. Thread-safe. */
final class SnapshotRing {

    private final MetricsSnapshot[] slots;
    private int next;
    private int size;

    SnapshotRing(int capacity) {
        this.slots = new MetricsSnapshot[capacity];
    }

    synchronized void add(MetricsSnapshot snapshot) {
        slots[next] = snapshot;
        next = (next + 1) % slots.length;
        if (size < slots.length) {
            size++;
        }
    }

    /** A copy, oldest first. */
    synchronized List<MetricsSnapshot> toList() {
        List<MetricsSnapshot> out = new ArrayList<>(size);
        int start = (next - size + slots.length) % slots.length;
        for (int i = 0; i < size; i++) {
            out.add(slots[(start + i) % slots.length]);
        }
        return out;
    }
}
