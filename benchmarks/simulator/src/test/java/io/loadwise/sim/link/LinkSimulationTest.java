package io.loadwise.sim.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.sim.workload.Trace;
import io.loadwise.sim.workload.TraceBuilder;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LinkSimulationTest {

    private static final double LINK = 1_250_000; // 10 Mbit/s in bytes/s

    /** Poisson arrivals at rate λ, sizes from {@code sizes}. */
    private static Trace trace(int n, double lambda, long[] sizes, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        TraceBuilder b = new TraceBuilder();
        double t = 0;
        for (int i = 0; i < n; i++) {
            b.add(Math.round(t * 1e9), sizes[i], false);
            t += -Math.log(1 - r.nextDouble()) / lambda;
        }
        return b.build("test");
    }

    private static ClientPath[] unlimited(int n) {
        ClientPath[] p = new ClientPath[n];
        Arrays.fill(p, new ClientPath(-1, 0, Double.POSITIVE_INFINITY));
        return p;
    }

    @Test
    void processorSharingAndFifoMatchTheirM_D_1ClosedForms() {
        // constant 12 500 B responses (10 ms on the link) at ρ = 0.7: M/D/1-PS sojourn E[S]/(1 − ρ) = 33.3 ms
        // (PS is insensitive to the size distribution); FIFO is M/D/1, E[S] + ρE[S]/(2(1 − ρ)) = 21.67 ms
        int n = 200_000;
        long[] sizes = new long[n];
        Arrays.fill(sizes, 12_500);
        Trace t = trace(n, 70, sizes, 3);
        LinkSimulation link = new LinkSimulation(LINK);
        double ps = link.run(t, unlimited(n), ResponseDiscipline.PS).meanResponseMillis(10_000, -1);
        double fifo = link.run(t, unlimited(n), ResponseDiscipline.FIFO).meanResponseMillis(10_000, -1);
        assertEquals(33.33, ps, 0.04 * 33.33, "M/D/1-PS");
        assertEquals(21.67, fifo, 0.04 * 21.67, "M/D/1 FCFS");
    }

    @Test
    void srptBeatsProcessorSharingOnHeavyTailedSizes() {
        // bounded Pareto sizes, α = 1.1, 1 KB .. 3 MB: the textbook case for SRPT (Harchol-Balter)
        int n = 100_000;
        SplittableRandom r = new SplittableRandom(5);
        long[] sizes = new long[n];
        double tail = 1 - Math.pow(3000, -1.1);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sizes[i] = Math.round(1000 * Math.pow(1 - r.nextDouble() * tail, -1 / 1.1));
            sum += sizes[i];
        }
        Trace t = trace(n, 0.8 * LINK / (sum / n), sizes, 6);
        LinkSimulation link = new LinkSimulation(LINK);
        LinkRunResult ps = link.run(t, unlimited(n), ResponseDiscipline.PS);
        LinkRunResult srpt = link.run(t, unlimited(n), ResponseDiscipline.SRPT);
        assertTrue(srpt.meanResponseMillis(5000, -1) < 0.8 * ps.meanResponseMillis(5000, -1),
                srpt.meanResponseMillis(5000, -1) + " vs PS " + ps.meanResponseMillis(5000, -1));
        double[] stretch = srpt.stretch(ps, 5000);
        assertTrue(stretch[0] < 0.2 && stretch[1] > 1, "few requests lose, some do: " + Arrays.toString(stretch));
        assertEquals(0.8 * 10, ps.throughputBytesPerSecond() * 8 / 1e6, 0.3, "the link carries the offered load");
        assertEquals(ps.throughputBytesPerSecond(), srpt.throughputBytesPerSecond(), ps.throughputBytesPerSecond() * 0.01,
                "throughput is the same under every discipline (seed 002)");
    }

    @Test
    void aWindowLimitedFlowLeavesTheRestOfTheLinkToOthers() {
        // one far client alone: 100 000 B at its window rate, 10 segments per 200 ms = 73 000 B/s; a near,
        // unlimited client arriving with it gets the remaining link, so it is not slowed by the far one at all
        TraceBuilder b = new TraceBuilder().add(0, 100_000, false).add(0, 1_000_000, false);
        Trace t = b.build("two");
        ClientPath far = new ClientPath(0, 0.2, 10 * ClientPath.MSS);
        ClientPath near = new ClientPath(1, 0, Double.POSITIVE_INFINITY);
        LinkRunResult r = new LinkSimulation(LINK).run(t, new ClientPath[] {far, near}, ResponseDiscipline.PS);
        double farRate = 10 * ClientPath.MSS / 0.2;
        assertEquals((100_000 / farRate + 0.2) * 1e3, r.responseSeconds()[0] * 1e3, 1e-6);
        assertEquals(1_000_000 / (LINK - farRate) * 1e3, r.responseSeconds()[1] * 1e3, 1e-6,
                "work-conserving: the near flow gets C − the far flow's cap while both run");
    }

    @Test
    void aLongRunDoesNotStallWhenTheClockOutgrowsTheSmallestStep() {
        // 100 000 requests at link load 0.1 run to ≈ 10^6 s of virtual time, where a double cannot add a
        // 10^-11 s step to the clock: the loop once stood still there (now + step == now)
        int n = 100_000;
        long[] sizes = new long[n];
        SplittableRandom r = new SplittableRandom(9);
        for (int i = 0; i < n; i++) {
            sizes[i] = 100 + r.nextInt(300_000);
        }
        Trace t = trace(n, 0.1 * LINK / 150_000, sizes, 10);
        ClientPath[] clients = LinkSimulation.clients(n, WanProfile.SEED002, new SplittableRandom(11));
        for (ResponseDiscipline d : ResponseDiscipline.values()) {
            LinkRunResult run = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> new LinkSimulation(LINK).run(t, clients, d));
            assertTrue(Arrays.stream(run.responseSeconds()).allMatch(x -> x > 0), d + ": every request completes");
        }
    }

    @Test
    void classesFollowTheThesisCutoffs() {
        // seed 002 digest table: 350 ms / cwnd 3, 10 KB → 350·(1 + ⌊10240/4380⌋) = 1050 ms → band 4;
        // 50 ms / cwnd 10, 1 KB → 50 ms → band 1; 3.12 MB at 350 ms / 3 → 249.6 s → band 6
        ClientPath slow = new ClientPath(0, 0.350, 3 * ClientPath.MSS);
        ClientPath fast = new ClientPath(0, 0.050, 10 * ClientPath.MSS);
        assertEquals(4, ResponseDiscipline.SRRT.priority(0, 10_240, slow));
        assertEquals(1, ResponseDiscipline.SRRT.priority(0, 1024, fast));
        assertEquals(6, ResponseDiscipline.SRRT.priority(0, 3_119_822, slow));
        // SRPT by bytes: (0, 1000] → 1, (15 000, 80 000] → 5, above 80 000 → 6
        assertEquals(1, ResponseDiscipline.SRPT.priority(0, 1000, slow));
        assertEquals(5, ResponseDiscipline.SRPT.priority(0, 80_000, slow));
        assertEquals(6, ResponseDiscipline.SRPT.priority(0, 80_001, slow));
        assertEquals(0, ResponseDiscipline.PS.priority(7, 80_001, slow));
        assertEquals(7, ResponseDiscipline.FIFO.priority(7, 80_001, slow));
    }

    @Test
    void seedTwoWansGiveEachRequestAPathFromItsProfile() {
        ClientPath[] paths = LinkSimulation.clients(60_000, WanProfile.SEED002, new SplittableRandom(1));
        int[] perWan = new int[6];
        for (ClientPath p : paths) {
            WanProfile w = WanProfile.SEED002.get(p.wan());
            perWan[p.wan()]++;
            assertTrue(Math.abs(p.rttSeconds() - w.rttSeconds()) <= w.jitterSeconds() + 1e-12);
            assertEquals(Math.sqrt(1.5 / w.lossRate()) * ClientPath.MSS, p.cwndBytes(), 1e-9);
        }
        for (int c : perWan) {
            assertEquals(10_000, c, 400, "one sixth each: " + Arrays.toString(perWan));
        }
        assertThrows(IllegalArgumentException.class, () -> new WanProfile("bad", 0.1, 0.01, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResponseDiscipline.of("lifo"));
        assertEquals("--scheduling lifo: unknown discipline, expected ps, fifo, srpt or srrt", e.getMessage());
        assertEquals(List.of("ps", "fifo", "srpt", "srrt"), Arrays.stream(ResponseDiscipline.values()).map(ResponseDiscipline::id).toList());
    }
}
