package io.loadwise.sim.trace;

import io.loadwise.policy.AgentSample;
import io.loadwise.policy.PolicyMetric;
import io.loadwise.sim.engine.RunObserver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A run's placements per node and virtual second, with the agent readings the dispatcher held at the
 * time, to show what a policy did with them: herds (one node taking far more than its share of a
 * second), starved nodes (none of a busy second), and which reading preceded each starvation. A
 * reading is flagged when it crosses the thresholds the raw Equation 2 rule excludes on
 * ({@code JVM_HEAP_USED% > heapThreshold}, {@code AMX_CONNS_Q_USED% > queueThreshold}); whether the
 * policy under trace still excludes on them is what the trace shows.
 *
 * <p>Memory: one row of counters per virtual second of the run (a 60,000-request run at 240 req/s:
 * 250 rows).
 */
public final class SelectionTrace implements RunObserver {

    /** Equation 2's heap threshold (seed 001; jvm-aware's and adaptive's default): readings over it are flagged. */
    public static final double HEAP_THRESHOLD = 85;
    /** Equation 2's queue threshold (seed 001, jvm-aware's default; adaptive's is 75). */
    public static final double QUEUE_THRESHOLD = 55;
    /** A second counts for herds and starvation only with at least this many placements. */
    static final int BUSY_SECOND = 20;
    /** A node herds a second when it takes this many times its share of the whole run. */
    static final double HERD_FACTOR = 2;

    private final int nodes;
    private final double heapThreshold;
    private final double queueThreshold;
    private final List<Second> seconds = new ArrayList<>();
    private final AgentSample[] latest;

    public SelectionTrace(int nodes, double heapThreshold, double queueThreshold) {
        this.nodes = nodes;
        this.heapThreshold = heapThreshold;
        this.queueThreshold = queueThreshold;
        this.latest = new AgentSample[nodes];
    }

    /** One virtual second: placements per node and the readings held when it ended. */
    private static final class Second {
        final int[] chosen;
        final int[] rejected = new int[1];
        final double[] heap;
        final double[] queue;
        final double[] cpu;

        Second(int nodes) {
            chosen = new int[nodes];
            heap = new double[nodes];
            queue = new double[nodes];
            cpu = new double[nodes];
            java.util.Arrays.fill(heap, Double.NaN);
            java.util.Arrays.fill(queue, Double.NaN);
            java.util.Arrays.fill(cpu, Double.NaN);
        }
    }

    private Second at(long nowNanos) {
        int s = (int) (nowNanos / 1_000_000_000L);
        while (seconds.size() <= s) {
            Second next = new Second(nodes);
            for (int i = 0; i < nodes; i++) {
                AgentSample sample = latest[i];
                if (sample != null) {
                    next.heap[i] = sample.value(PolicyMetric.JVM_HEAP_USED);
                    next.queue[i] = sample.value(PolicyMetric.AMX_CONNS_Q_USED);
                    next.cpu[i] = sample.value(PolicyMetric.OS_CPU_USED);
                }
            }
            seconds.add(next);
        }
        return seconds.get(s);
    }

    @Override
    public void chosen(long nowNanos, int node) {
        Second second = at(nowNanos);
        if (node < 0) {
            second.rejected[0]++;
        } else {
            second.chosen[node]++;
        }
    }

    @Override
    public void sampleDelivered(long nowNanos, int node, AgentSample sample) {
        latest[node] = sample;
        Second second = at(nowNanos);
        second.heap[node] = sample.value(PolicyMetric.JVM_HEAP_USED);
        second.queue[node] = sample.value(PolicyMetric.AMX_CONNS_Q_USED);
        second.cpu[node] = sample.value(PolicyMetric.OS_CPU_USED);
    }

    /**
     * What the run did with its readings.
     *
     * @param busySeconds seconds with at least {@link #BUSY_SECOND} placements
     * @param herdSeconds busy seconds in which a node took {@link #HERD_FACTOR} times its run share or more
     * @param starved node-seconds of busy seconds in which a node took nothing
     * @param starvedAfterHeap of those, the ones whose node's latest reading had its heap over the threshold
     * @param starvedAfterQueue of those, the ones whose latest reading had its queue over (and heap not)
     * @param heapOver readings over the heap threshold, of {@code readings}
     * @param queueOver readings over the queue threshold
     * @param readings node-seconds with a reading
     */
    public record Summary(int busySeconds, int herdSeconds, int starved, int starvedAfterHeap, int starvedAfterQueue,
            int heapOver, int queueOver, int readings) {

        public static final String HEADER = "busy s  herd s  starved  after heap  after queue  heap over  queue over  readings";
        public static final String LEGEND = "busy s = seconds with >= " + BUSY_SECOND + " placements; herd s = busy seconds in which"
                + " a node took >= " + HERD_FACTOR + "x its share of the run; starved = node-seconds of busy seconds with no"
                + " placement; after heap / queue = of those, the ones whose node's reading was over that threshold;"
                + " heap / queue over = readings over the threshold, of all readings";

        /** The summary as one line under {@link #HEADER}. */
        public String line() {
            return String.format(Locale.ROOT, "%6d  %6d  %7d  %10d  %11d  %9d  %10d  %8d", busySeconds, herdSeconds,
                    starved, starvedAfterHeap, starvedAfterQueue, heapOver, queueOver, readings);
        }
    }

    public Summary summary() {
        long[] total = new long[nodes];
        long all = 0;
        for (Second s : seconds) {
            for (int i = 0; i < nodes; i++) {
                total[i] += s.chosen[i];
                all += s.chosen[i];
            }
        }
        int busy = 0;
        int herds = 0;
        int starved = 0;
        int afterHeap = 0;
        int afterQueue = 0;
        int heapOver = 0;
        int queueOver = 0;
        int readings = 0;
        for (int k = 0; k < seconds.size(); k++) {
            Second s = seconds.get(k);
            Second before = k == 0 ? null : seconds.get(k - 1);
            int sum = 0;
            for (int c : s.chosen) {
                sum += c;
            }
            for (int i = 0; i < nodes; i++) {
                if (!Double.isNaN(s.heap[i]) || !Double.isNaN(s.queue[i])) {
                    readings++;
                    heapOver += s.heap[i] > heapThreshold ? 1 : 0;
                    queueOver += s.queue[i] > queueThreshold ? 1 : 0;
                }
            }
            if (sum < BUSY_SECOND || all == 0) {
                continue;
            }
            busy++;
            boolean herd = false;
            for (int i = 0; i < nodes; i++) {
                double runShare = (double) total[i] / all;
                herd |= runShare > 0 && (double) s.chosen[i] / sum >= HERD_FACTOR * runShare;
                if (s.chosen[i] == 0) {
                    starved++;
                    // the reading the policy held during this second: the one current when it began
                    double heap = before == null ? Double.NaN : before.heap[i];
                    double queue = before == null ? Double.NaN : before.queue[i];
                    if (heap > heapThreshold || s.heap[i] > heapThreshold) {
                        afterHeap++;
                    } else if (queue > queueThreshold || s.queue[i] > queueThreshold) {
                        afterQueue++;
                    }
                }
            }
            herds += herd ? 1 : 0;
        }
        return new Summary(busy, herds, starved, afterHeap, afterQueue, heapOver, queueOver, readings);
    }

    /** second, node, placements, share of the second, rejected (node 0's row only), heap, queue, cpu, flags. */
    public void writeCsv(Path file) throws IOException {
        StringBuilder csv = new StringBuilder("second,node,chosen,share,rejected,heap_pct,queue_pct,cpu_pct,heap_over,queue_over\n");
        for (int k = 0; k < seconds.size(); k++) {
            Second s = seconds.get(k);
            int sum = 0;
            for (int c : s.chosen) {
                sum += c;
            }
            for (int i = 0; i < nodes; i++) {
                csv.append(String.format(Locale.ROOT, "%d,%d,%d,%.3f,%d,%s,%s,%s,%d,%d%n", k, i + 1, s.chosen[i],
                        sum == 0 ? 0.0 : (double) s.chosen[i] / sum, i == 0 ? s.rejected[0] : 0, cell(s.heap[i]),
                        cell(s.queue[i]), cell(s.cpu[i]), s.heap[i] > heapThreshold ? 1 : 0,
                        s.queue[i] > queueThreshold ? 1 : 0));
            }
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, csv);
    }

    private static String cell(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.1f", v);
    }
}
