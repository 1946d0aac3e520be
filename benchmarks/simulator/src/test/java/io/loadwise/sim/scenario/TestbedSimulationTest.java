package io.loadwise.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.PolicyRegistry;
import io.loadwise.scenario.CapacityScenario;
import io.loadwise.scenario.Vcn3Queue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestbedSimulationTest {

    private static final PolicyRegistry POLICIES = PolicyRegistry.load();

    private static TestbedSettings settings(int threads, NodeResources full, int sessionKb, double thinkMs, long jdbcWaitMs) {
        return new TestbedSettings(threads, 0.1, full, sessionKb, 10, 1000, thinkMs, 4.0, 2, 0.3, jdbcWaitMs, 1.0,
                1000, 5, 3000, 100, 100, 100);
    }

    private static TestbedSimulation sim(TestbedSettings s, CapacityScenario scenario, String row, long seed) {
        SweepRow r = SweepRow.parse(row);
        return new TestbedSimulation(s, scenario, r, POLICIES.get(r.policyId()), seed);
    }

    @Test
    void closedLoopClientsKeepExactlyNRequestsOutstandingOrThinking() {
        for (double think : new double[] {0, 25}) {
            TestbedSettings s = settings(60, TestbedSettings.SWEEP_FULL_NODE, 450, think, 10_000);
            AtomicInteger checked = new AtomicInteger();
            AtomicInteger sustained = new AtomicInteger();
            long sustainFrom = 9L * s.rampStepSeconds() * 1_000_000_000L;
            long sustainTo = sustainFrom + s.sustainSeconds() * 1_000_000_000L;
            CellOutcome out = sim(s, CapacityScenario.COMBINED, "http-round-robin", 3).probe(sim -> {
                int active = sim.activeThreads();
                assertEquals(active, sim.requestsAtNodes() + sim.requestsPending(),
                        "think " + think + " ms at " + sim.now() + " ns: every active client has one request at a node,"
                                + " on its failure path, or about to be sent");
                if (sim.now() > sustainFrom && sim.now() < sustainTo) {
                    assertEquals(60, active, "all 60 clients run during the sustain");
                    sustained.incrementAndGet();
                }
                checked.incrementAndGet();
            }).run();
            assertTrue(checked.get() > 10_000, "checked after every event: " + checked.get());
            assertTrue(sustained.get() > 1000);
            assertTrue(out.samples() > 1000, out.toString());
        }
    }

    @Test
    void nodesNeverHoldMoreThanWorkersPlusQueueAndRefuseTheRest() {
        // 30 clients, round robin: about 10 connections on each node; VCN3 takes 6 workers + 2 queued, the others 14
        NodeResources full = new NodeResources(96, 12, 2, 10);
        TestbedSettings s = settings(30, full, 0, 0, 10_000);
        CellOutcome out = sim(s, CapacityScenario.HTTP_THREADS, "http-round-robin", 1).probe(sim -> {
            for (TestbedNode n : sim.nodes()) {
                assertTrue(n.busyWorkers() <= n.resources().workers(), n.name() + " workers");
                assertTrue(n.queue.size() <= n.resources().queue(), n.name() + " queue");
            }
        }).run();
        assertTrue(out.refused() > 0, "VCN3 refuses beyond 6 + 2");
        assertEquals(out.refused(), out.failed(), "the only failures are refusals (no sessions, JDBC never short)");
        assertTrue(out.failuresByNode()[2] > out.failuresByNode()[0] + out.failuresByNode()[1], "mostly on VCN3");
    }

    @Test
    void theJdbcWaitIsBounded() {
        // VCN3 gets 1 JDBC connection (pool 2 halved), 12 workers, and a 40 ms bound on the wait
        NodeResources full = new NodeResources(96, 12, 12, 2);
        TestbedSettings s = settings(60, full, 0, 0, 40);
        TestbedSimulation sim = sim(s, CapacityScenario.JDBC, "http-round-robin", 2);
        CellOutcome out = sim.run();
        assertTrue(out.jdbcTimeouts() > 0, "requests gave up waiting");
        assertEquals(40_000_000L, sim.longestJdbcWaitNanos(), "no request waited longer than the bound, and some as long");
        assertEquals(out.jdbcTimeouts(), out.failed());

        TestbedSettings patient = settings(60, full, 0, 0, 60_000);
        TestbedSimulation waits = sim(patient, CapacityScenario.JDBC, "http-round-robin", 2);
        CellOutcome served = waits.run();
        assertEquals(0, served.jdbcTimeouts(), "a minute's bound outlasts every wait of a 30 s run");
        assertTrue(waits.longestJdbcWaitNanos() > 40_000_000L);
    }

    @Test
    void sessionsBeyondTheHeapFailRequestsAndExpiredOnesMakeRoom() {
        // 600 KB sessions: VCN3's 48 MB (70 % free) holds 57, VCN1's 96 MB 114; 30 clients reconnecting every
        // second under round robin leave about 10 new sessions a second on each node, each living 10 s
        TestbedSettings s = settings(30, TestbedSettings.SWEEP_FULL_NODE, 600, 0, 10_000);
        AtomicLong peakSessions = new AtomicLong();
        CellOutcome out = sim(s, CapacityScenario.HEAP, "http-round-robin", 4).probe(sim -> {
            TestbedNode vcn3 = sim.nodes().get(2);
            assertTrue(vcn3.heapUsedBytes() <= vcn3.heapMaxBytes(), "sessions never exceed the heap");
            peakSessions.accumulateAndGet(vcn3.sessions.size(), Math::max);
        }).run();
        assertTrue(out.outOfMemory() > 0, "VCN3 ran out of heap");
        assertEquals(57, peakSessions.get(), "(48 MB x 0.7) / 600 KB");
        assertTrue(out.failuresByNode()[2] == out.failed(), "only VCN3 ran out");
        assertTrue(out.samples() - out.failed() > out.failed(), "it recovered: most requests were served");
    }

    @Test
    void sameSeedSameResultOtherSeedOtherResult() {
        TestbedSettings s = settings(60, TestbedSettings.SWEEP_FULL_NODE, 450, 0, 10_000);
        CellOutcome a = sim(s, CapacityScenario.COMBINED, "http-adaptive", 7).run();
        CellOutcome b = sim(s, CapacityScenario.COMBINED, "http-adaptive", 7).run();
        CellOutcome c = sim(s, CapacityScenario.COMBINED, "http-adaptive", 8).run();
        assertEquals(a.samples(), b.samples());
        assertEquals(a.failed(), b.failed());
        assertEquals(a.throughput(), b.throughput());
        assertArrayEquals(a.selections(), b.selections());
        assertArrayEquals(a.peakHeapPercent(), b.peakHeapPercent());
        assertTrue(a.samples() != c.samples() || a.throughput() != c.throughput());
    }

    /**
     * JDBC scenario, VCN3's pool 5, full nodes' 10; every node with workers to spare, so that every request at a node
     * waits for a connection; connections placed once (the TTL outlasts the run), so round robin puts 17/17/16 on the
     * nodes at 50 clients and 10 each at 30; short CPU time, so the hold sets the pace.
     */
    private static CellOutcome heldConnections(int threads, String row, long holdMs, long waitMs) {
        TestbedSettings s = new TestbedSettings(threads, 0.1, new NodeResources(96, 40, 40, 10), 0, 10, 1_000_000, 0,
                0.5, 2, 0.3, waitMs, 0.5, 1000, 5, 3000, 100, 100, 100, holdMs, Vcn3Queue.SEED);
        return sim(s, CapacityScenario.JDBC, row, 5).run();
    }

    @Test
    void aPoolOfFiveFailsUnderThreePointThreeRequestsPerConnectionAndNotUnderTwo() {
        // with N requests per connection, a FIFO waiter waits about (N - 1) holds: 2.3 x 200 ms > 300 ms > 1 x 200 ms
        CellOutcome overloaded = heldConnections(50, "http-round-robin", 200, 300);
        assertTrue(overloaded.jdbcTimeouts() > 0, "16-17 requests on 5 connections: " + overloaded);
        assertEquals(overloaded.jdbcTimeouts(), overloaded.failuresByNode()[2], "all on VCN3: " + overloaded);
        assertTrue(overloaded.failedPercent() >= 1, "round robin bites: " + overloaded.failedPercent() + " %");
        CellOutcome control = heldConnections(50, "http-static-wrr@2:2:1", 200, 300);
        assertEquals(0, control.failed(), "the 2:2:1 control: 2 requests per connection everywhere: " + control);
        CellOutcome fewer = heldConnections(30, "http-round-robin", 200, 300);
        assertEquals(0, fewer.failed(), "10 requests on 5 connections: " + fewer);
        CellOutcome noHold = heldConnections(50, "http-round-robin", 0, 300);
        assertEquals(0, noHold.failed(), "without the hold a connection is held for its CPU time only: " + noHold);
        assertTrue(overloaded.samples() < noHold.samples(), "holding paces the clients");
    }

    @Test
    void theScenarioHalvesVcn3AsTheSweepDoes() {
        NodeResources full = TestbedSettings.SWEEP_FULL_NODE;
        assertEquals(full, full.vcn3In(CapacityScenario.BASELINE, Vcn3Queue.SEED));
        assertEquals(new NodeResources(48, 12, 12, 10), full.vcn3In(CapacityScenario.HEAP, Vcn3Queue.SEED));
        assertEquals(new NodeResources(96, 6, 12, 10), full.vcn3In(CapacityScenario.HTTP_THREADS, Vcn3Queue.SEED));
        assertEquals(new NodeResources(96, 12, 12, 5), full.vcn3In(CapacityScenario.JDBC, Vcn3Queue.SEED));
        assertEquals(new NodeResources(48, 6, 12, 5), full.vcn3In(CapacityScenario.COMBINED, Vcn3Queue.SEED));
        for (CapacityScenario scenario : CapacityScenario.values()) {
            assertEquals(List.of(full, full, full.vcn3In(scenario, Vcn3Queue.SEED)),
                    full.nodesIn(scenario, Vcn3Queue.SEED), "VCN1 and VCN2 stay full in " + scenario.key());
        }
    }

    @Test
    void aModelledNodeKeepsOneWorkerAndOneConnection() {
        NodeResources tiny = new NodeResources(96, 1, 0, 1);
        assertEquals(new NodeResources(48, 1, 0, 1), tiny.vcn3In(CapacityScenario.COMBINED, Vcn3Queue.SEED));
        assertEquals(new NodeResources(48, 1, 1, 1), tiny.vcn3In(CapacityScenario.COMBINED, Vcn3Queue.HALF),
                "the half queue is at least one, as Vcn3Queue says");
    }

    @Test
    void aHalfQueueHalvesVcn3sQueueWhereverItsThreadsAreHalved() {
        NodeResources full = TestbedSettings.SWEEP_FULL_NODE;
        assertEquals(new NodeResources(96, 6, 6, 10), full.vcn3In(CapacityScenario.HTTP_THREADS, Vcn3Queue.HALF));
        assertEquals(new NodeResources(48, 6, 6, 5), full.vcn3In(CapacityScenario.COMBINED, Vcn3Queue.HALF));
        assertEquals(new NodeResources(48, 12, 12, 10), full.vcn3In(CapacityScenario.HEAP, Vcn3Queue.HALF));
        assertEquals(new NodeResources(96, 12, 12, 5), full.vcn3In(CapacityScenario.JDBC, Vcn3Queue.HALF));
        assertEquals(List.of(full, full, new NodeResources(96, 6, 6, 10)),
                full.nodesIn(CapacityScenario.HTTP_THREADS, Vcn3Queue.HALF));
        TestbedSettings half = TestbedSettings.sweepDefaults(60, 0.1).withVcn3Queue(Vcn3Queue.HALF);
        assertEquals(Vcn3Queue.SEED, TestbedSettings.sweepDefaults(60, 0.1).vcn3Queue(), "the seed's by default");
        assertTrue(half.describe().contains("VCN3's queue halved with its threads"), half.describe());
    }

    @Test
    void theCalibrationsVcn3QueueReachesTheModel(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("calibration.json"), """
                {"scenarios": {"http-threads": ["--threads", "60", "--vcn3-queue", "half", "--node-queue", "12",
                  "--jdbc-hold-ms", "50", "--jdbc-max-wait-ms", "500"]}}
                """);
        CalibrationFile calibration = CalibrationFile.read(file);
        TestbedSettings base = TestbedSettings.sweepDefaults(30, 0.1);
        TestbedSettings threads = calibration.settings(CapacityScenario.HTTP_THREADS, base);
        assertEquals(Vcn3Queue.HALF, threads.vcn3Queue());
        assertEquals(60, threads.threads());
        assertEquals(50, threads.jdbcHoldMs());
        assertEquals(500, threads.jdbcWaitMs());
        assertEquals(0, base.jdbcHoldMs(), "no hold by default");
        assertEquals(10_000, base.jdbcWaitMs(), "the data source's 10 s by default");
        assertEquals(Vcn3Queue.SEED, calibration.settings(CapacityScenario.HEAP, base).vcn3Queue(), "not calibrated");
    }

    /** Failed requests of adaptive and of least connections in one cell, each summed over three runs. */
    private record Failures(long adaptive, long leastConnections) {
    }

    /**
     * A cell of the calibrated sweep (issue 16), run with seeds 1 to 3 under adaptive and under least connections:
     * 50 clients, queue 16, VCN3's workers and queue halved where its threads are, requests hold their JDBC
     * connection 200 ms and wait for one at most {@code jdbcWaitMs}.
     */
    private static Failures calibratedCell(CapacityScenario scenario, int sessionKb, long jdbcWaitMs,
            boolean agentQueueMetric) {
        TestbedSettings s = new TestbedSettings(50, 0.1, new NodeResources(96, 12, 16, 10), sessionKb, 10, 1000, 0,
                4.0, 2, 0.3, jdbcWaitMs, 4.0, 1000, 5, 3000, 100, 100, 100, 200, Vcn3Queue.HALF, agentQueueMetric);
        long adaptive = 0;
        long leastConnections = 0;
        for (long seed = 1; seed <= 3; seed++) {
            adaptive += sim(s, scenario, "http-adaptive", seed).run().failed();
            leastConnections += sim(s, scenario, "http-least-connections", seed).run().failed();
        }
        return new Failures(adaptive, leastConnections);
    }

    @Test
    void adaptiveKeepsClientsOffTheNodeWithHalfThePoolWhereLeastConnectionsDoesNot() {
        // the calibrated sweep's jdbc cell: wait at most 300 ms; VCN3 has 5 connections, the others 10. Every pool
        // is 100 % active and VCN3's queue is the emptiest, so only its response time per request in flight tells
        // it apart
        Failures failed = calibratedCell(CapacityScenario.JDBC, 320, 300, true);
        long adaptive = failed.adaptive();
        long leastConnections = failed.leastConnections();
        assertTrue(leastConnections > 100, "least connections: " + leastConnections);
        assertTrue(adaptive <= 10, "adaptive: " + adaptive + " failures in 3 runs, least connections " + leastConnections);
    }

    @Test
    void withoutTheQueueMetricAdaptiveStaysOffTheRefusingNodeByItsFailures() {
        // the calibrated sweep's http-threads cell: wait 450 ms; the sweep's Tomcat reports no queue metric. VCN3
        // refuses, its refused exchanges end at once, so by in-flight work alone it is the least loaded node (the
        // real run: 14,650 failures)
        Failures failed = calibratedCell(CapacityScenario.HTTP_THREADS, 448, 450, false);
        long adaptive = failed.adaptive();
        long leastConnections = failed.leastConnections();
        assertTrue(leastConnections > 10_000, "least connections: " + leastConnections);
        assertTrue(adaptive <= 150, "adaptive: " + adaptive + " failures in 3 runs, least connections " + leastConnections);
    }
}
