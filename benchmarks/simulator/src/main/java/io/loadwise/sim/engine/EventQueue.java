package io.loadwise.sim.engine;

import java.util.Arrays;

/**
 * Binary min-heap of simulation events over primitive arrays (no per-event objects: a run of several
 * million requests schedules several million events). Ties in time are broken by insertion order, so
 * runs are deterministic.
 */
final class EventQueue {

    static final int COMPLETION = 0;
    static final int SAMPLE_TAKE = 1;
    static final int SAMPLE_DELIVER = 2;

    private long[] time = new long[256];
    private long[] seq = new long[256];
    private int[] kind = new int[256];
    private int[] node = new int[256];
    private long[] value = new long[256];
    private int size;
    private long nextSeq;

    // fields of the event last removed by poll()
    long polledTime;
    int polledKind;
    int polledNode;
    long polledValue;

    boolean isEmpty() {
        return size == 0;
    }

    long peekTime() {
        return time[0];
    }

    void push(long t, int k, int n, long v) {
        if (size == time.length) {
            int grown = size * 2;
            time = Arrays.copyOf(time, grown);
            seq = Arrays.copyOf(seq, grown);
            kind = Arrays.copyOf(kind, grown);
            node = Arrays.copyOf(node, grown);
            value = Arrays.copyOf(value, grown);
        }
        int i = size++;
        set(i, t, nextSeq++, k, n, v);
        siftUp(i);
    }

    /** Removes the earliest event into the {@code polled*} fields. */
    void poll() {
        polledTime = time[0];
        polledKind = kind[0];
        polledNode = node[0];
        polledValue = value[0];
        size--;
        if (size > 0) {
            set(0, time[size], seq[size], kind[size], node[size], value[size]);
            siftDown(0);
        }
    }

    private void set(int i, long t, long s, int k, int n, long v) {
        time[i] = t;
        seq[i] = s;
        kind[i] = k;
        node[i] = n;
        value[i] = v;
    }

    private boolean less(int a, int b) {
        return time[a] < time[b] || (time[a] == time[b] && seq[a] < seq[b]);
    }

    private void swap(int a, int b) {
        long t = time[a]; time[a] = time[b]; time[b] = t;
        long s = seq[a]; seq[a] = seq[b]; seq[b] = s;
        int k = kind[a]; kind[a] = kind[b]; kind[b] = k;
        int n = node[a]; node[a] = node[b]; node[b] = n;
        long v = value[a]; value[a] = value[b]; value[b] = v;
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(i, parent)) {
                return;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int left = 2 * i + 1;
            if (left >= size) {
                return;
            }
            int child = left + 1 < size && less(left + 1, left) ? left + 1 : left;
            if (!less(child, i)) {
                return;
            }
            swap(i, child);
            i = child;
        }
    }
}
