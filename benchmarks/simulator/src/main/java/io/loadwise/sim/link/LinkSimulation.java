package io.loadwise.sim.link;

import io.loadwise.sim.workload.Trace;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seed 002's experiment as a fluid model: one server whose outgoing link (capacity C) is the bottleneck,
 * and responses from a trace leaving through it under a {@link ResponseDiscipline}. Between events every
 * flow drains at a constant rate; the rates are recomputed at each arrival, completion and re-classification
 * (every 8 KB for the size-based disciplines). A request's response time is its time at the link plus one
 * round trip (the request travelling in, the last byte travelling out): seed 002's RT ≈ RTT + S/C + queueing.
 *
 * <p>What it leaves out, on purpose: slow start, loss recovery and the retransmissions themselves (a flow
 * runs at its steady-state window from the first byte), the kernel's packet granularity and the server's
 * CPU. Memory: the flows in progress, and one double per request for the per-request comparison.
 */
public final class LinkSimulation {

    /** A flow counts as finished within this many bytes: the fluid arithmetic's rounding, not a real gap. */
    private static final double DONE_BYTES = 1e-6;
    /**
     * Shortest step and time tolerance, 1 ns. Late in a long run the clock reads 10^5 s and more, where a
     * double cannot represent a step much under 10^-11 s: without a floor, now + step == now and the loop
     * would stand still. Anything due within 1 ns is treated as due now.
     */
    private static final double TICK_SECONDS = 1e-9;

    private final double linkBytesPerSecond;

    public LinkSimulation(double linkBytesPerSecond) {
        if (!(linkBytesPerSecond > 0) || Double.isInfinite(linkBytesPerSecond)) {
            throw new IllegalArgumentException("link capacity must be a positive number, got " + linkBytesPerSecond);
        }
        this.linkBytesPerSecond = linkBytesPerSecond;
    }

    /**
     * Draws each request's client: a WAN chosen uniformly (seed 002 had one client machine per WAN, each
     * sending the same load), its RTT uniform in mean ± jitter, its window from the loss rate. Drawn once
     * and shared by every discipline, so runs are paired request by request.
     */
    public static ClientPath[] clients(int requests, List<WanProfile> wans, SplittableRandom random) {
        ClientPath[] paths = new ClientPath[requests];
        for (int i = 0; i < requests; i++) {
            int w = random.nextInt(wans.size());
            WanProfile p = wans.get(w);
            double rtt = p.rttSeconds() + (2 * random.nextDouble() - 1) * p.jitterSeconds();
            paths[i] = new ClientPath(w, rtt, p.windowSegments() * ClientPath.MSS);
        }
        return paths;
    }

    /** Runs the whole trace; sizes come from the trace, clients from {@link #clients}. */
    public LinkRunResult run(Trace trace, ClientPath[] clients, ResponseDiscipline discipline) {
        if (clients.length != trace.size()) {
            throw new IllegalArgumentException("clients for " + clients.length + " requests, trace has " + trace.size());
        }
        double[] responseSeconds = new double[trace.size()];
        List<Flow> active = new ArrayList<>();
        double origin = trace.arrivalNanos(0) / 1e9;
        double now = 0;
        int next = 0;
        boolean dirty = false;
        double bytesSent = 0;
        while (next < trace.size() || !active.isEmpty()) {
            if (dirty) {
                allocate(active);
                dirty = false;
            }
            double step = Double.POSITIVE_INFINITY;
            for (Flow f : active) {
                if (f.rate > 0) {
                    step = Math.min(step, f.remaining / f.rate);
                    if (discipline.sizeBased() && f.nextBoundarySent < f.size) {
                        step = Math.min(step, (f.nextBoundarySent - (f.size - f.remaining)) / f.rate);
                    }
                }
            }
            double arrival = next < trace.size() ? trace.arrivalNanos(next) / 1e9 - origin : Double.POSITIVE_INFINITY;
            double until = Math.min(now + Math.max(step, TICK_SECONDS), arrival);
            double dt = until - now;
            for (Flow f : active) {
                double sent = Math.min(f.remaining, f.rate * dt);
                f.remaining -= sent;
                bytesSent += sent;
            }
            now = until;
            for (int i = active.size() - 1; i >= 0; i--) {
                Flow f = active.get(i);
                if (f.remaining <= Math.max(DONE_BYTES, f.rate * TICK_SECONDS)) {
                    bytesSent += f.remaining;
                    responseSeconds[f.request] = now - f.arrival + f.path.rttSeconds();
                    active.set(i, active.get(active.size() - 1));
                    active.remove(active.size() - 1);
                    dirty = true;
                } else if (discipline.sizeBased()
                        && f.size - f.remaining >= f.nextBoundarySent - Math.max(DONE_BYTES, f.rate * TICK_SECONDS)) {
                    while (f.nextBoundarySent <= f.size - f.remaining + Math.max(DONE_BYTES, f.rate * TICK_SECONDS)) {
                        f.nextBoundarySent += ResponseDiscipline.RECLASSIFY_BYTES;
                    }
                    f.priority = discipline.priority(f.request, f.remaining, f.path);
                    dirty = true;
                }
            }
            while (next < trace.size() && trace.arrivalNanos(next) / 1e9 - origin <= now) {
                Flow f = new Flow(next, now, Math.max(1, trace.sizeBytes(next)), clients[next]);
                f.priority = discipline.priority(next, f.remaining, f.path);
                active.add(f);
                next++;
                dirty = true;
            }
        }
        return new LinkRunResult(discipline, responseSeconds, clients, bytesSent / Math.max(now, 1e-9));
    }

    /** Strict priority across classes, a capped fair share (water-filling) within each. */
    private void allocate(List<Flow> active) {
        active.sort(BY_PRIORITY_THEN_CAP);
        double left = linkBytesPerSecond;
        int i = 0;
        while (i < active.size()) {
            int j = i;
            while (j < active.size() && active.get(j).priority == active.get(i).priority) {
                j++;
            }
            // flows of the class in increasing cap: each takes its cap or an equal share of what is left
            for (int k = i; k < j; k++) {
                Flow f = active.get(k);
                f.rate = Math.min(f.path.rateCapBytesPerSecond(), left / (j - k));
                left -= f.rate;
            }
            i = j;
        }
    }

    private static final Comparator<Flow> BY_PRIORITY_THEN_CAP = Comparator.<Flow>comparingDouble(f -> f.priority)
            .thenComparingDouble(f -> f.path.rateCapBytesPerSecond());

    /** A response in progress. */
    private static final class Flow {
        final int request;
        final double arrival;
        final double size;
        final ClientPath path;
        double remaining;
        double rate;
        double priority;
        /** Bytes sent at which the next 8 KB re-classification happens. */
        double nextBoundarySent = ResponseDiscipline.RECLASSIFY_BYTES;

        Flow(int request, double arrival, double size, ClientPath path) {
            this.request = request;
            this.arrival = arrival;
            this.size = size;
            this.path = path;
            this.remaining = size;
        }
    }
}
