package io.loadwise.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TestbedNodeTest {

    private long now;

    private TestbedNode node(NodeResources r, double baseHeap, int sessionKb) {
        return new TestbedNode(0, 1, r, () -> now, 3000, baseHeap, sessionKb);
    }

    @Test
    void refusesExactlyBeyondWorkersPlusQueue() {
        TestbedNode n = node(new NodeResources(96, 3, 4, 10), 0.3, 0);
        for (int i = 0; i < 3; i++) {
            assertEquals(TestbedNode.Admission.WORKER, n.admit(i), "request " + i);
        }
        for (int i = 3; i < 7; i++) {
            assertEquals(TestbedNode.Admission.QUEUED, n.admit(i), "request " + i);
        }
        assertEquals(TestbedNode.Admission.REFUSED, n.admit(7), "workers + queue = 7 are busy");
        assertEquals(TestbedNode.Admission.REFUSED, n.admit(8));
        // a worker frees: the first queued request (3) takes it, one queue slot opens, exactly one more fits
        assertEquals(3, n.releaseWorker());
        assertEquals(TestbedNode.Admission.QUEUED, n.admit(9));
        assertEquals(TestbedNode.Admission.REFUSED, n.admit(10));
    }

    @Test
    void aNodeWithoutQueueRefusesAsSoonAsEveryWorkerIsBusy() {
        TestbedNode n = node(new NodeResources(96, 2, 0, 10), 0.3, 0);
        assertEquals(TestbedNode.Admission.WORKER, n.admit(0));
        assertEquals(TestbedNode.Admission.WORKER, n.admit(1));
        assertEquals(TestbedNode.Admission.REFUSED, n.admit(2));
        assertEquals(-1, n.releaseWorker());
        assertEquals(1, n.busyWorkers());
        assertEquals(TestbedNode.Admission.WORKER, n.admit(3));
    }

    @Test
    void jdbcConnectionsGoToWaitersInOrder() {
        TestbedNode n = node(new NodeResources(96, 12, 12, 2), 0.3, 0);
        assertTrue(n.tryAcquireJdbc());
        assertTrue(n.tryAcquireJdbc());
        assertFalse(n.tryAcquireJdbc());
        n.jdbcWaiters.addLast(5);
        n.jdbcWaiters.addLast(6);
        assertEquals(5, n.releaseJdbc(), "handed over, still in use");
        assertEquals(2, n.jdbcInUse());
        assertEquals(6, n.releaseJdbc());
        assertEquals(-1, n.releaseJdbc());
        assertEquals(1, n.jdbcInUse());
    }

    @Test
    void heapFailsOnceSessionsExceedItAndRecoversAsTheyExpire() {
        // 10 MB heap, 30 % (3 MB) base, 1 MB sessions: 7 fit, the 8th is an OutOfMemoryError
        TestbedNode n = node(new NodeResources(10, 12, 12, 10), 0.3, 1024);
        long second = 1_000_000_000L;
        for (int i = 0; i < 7; i++) {
            now = i * second;
            assertTrue(n.sessionFits(), "session " + i);
            n.sessions.put((long) i, now);
        }
        assertFalse(n.sessionFits(), "the eighth session does not fit");
        assertEquals(100.0 * (3 + 7) / 10, 100.0 * n.heapUsedBytes() / n.heapMaxBytes(), 1e-9);
        long timeout = 10 * second;
        now = 10 * second;
        assertEquals(0, n.expireSessions(now, timeout), "none idle for longer than 10 s yet");
        assertFalse(n.sessionFits());
        now = 11 * second + 1;
        assertEquals(2, n.expireSessions(now, timeout), "sessions 0 and 1 were idle for more than 10 s");
        assertTrue(n.sessionFits(), "room again once they expired");
        now = 100 * second;
        assertEquals(5, n.expireSessions(now, timeout));
        assertEquals(0, n.sessions.size());
    }
}
