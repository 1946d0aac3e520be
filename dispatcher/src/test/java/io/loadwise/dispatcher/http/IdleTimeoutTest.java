package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code idleTimeoutMs} as docs/configuration.md states it, on real sockets: nothing moving either way for that
 * long closes the client connection, also in the middle of a response or request body, even though
 * {@code responseIdleTimeoutMs} and {@code requestIdleTimeoutMs} (30 s by default) are longer. A stall is caught
 * between one and two idle periods after the last byte (progress is looked at when the connection's timer
 * fires); the bounds below add room for a loaded build machine and stay far below the 30 s of the other limits.
 */
class IdleTimeoutTest {

    private static final int IDLE_MS = 1_500;
    /** Earliest close after the last byte the client saw: the idle time, less what relaying one write may take. */
    private static final long EARLIEST_MS = IDLE_MS - 100;
    /** Latest: two idle periods, plus slack for a loaded machine; the 30 s limits would take far longer. */
    private static final long LATEST_MS = 2 * IDLE_MS + 6_000;

    private ProxyFixture proxy;
    private ScriptedBackend node;

    @AfterEach
    void tearDown() throws Exception {
        if (proxy != null) {
            proxy.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aResponseStalledMidBodyIsClosedAfterIdleTimeoutMs() throws Exception {
        // 10 bytes of 1000, then the node keeps its connection open and sends nothing more
        node = new ScriptedBackend("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly ten b", false);
        proxy = new ProxyFixture();
        proxy.idleTimeoutMs = IDLE_MS;
        proxy.node("stalls", node.address()).start();
        try (RawHttpClient client = proxy.client()) {
            client.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, client.readHead().status());
            assertArrayEquals("only ten b".getBytes(StandardCharsets.US_ASCII), client.input().readNBytes(10));
            long lastByte = System.nanoTime();

            assertTrue(client.closedWithin((int) LATEST_MS), "the stalled response was not cut within "
                    + LATEST_MS + " ms");
            long afterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastByte);
            assertTrue(afterMs >= EARLIEST_MS, "closed " + afterMs + " ms after the last byte, before idleTimeoutMs "
                    + IDLE_MS);
        }
        proxy.assertSettled();
        assertEquals(1, proxy.cluster.counters().failedRequests(), "the cut response counts as failed");
    }

    @Test
    void aRequestBodyStalledMidwayIsAnswered408AfterIdleTimeoutMs() throws Exception {
        TestBackend whole = new TestBackend("whole"); // answers once the whole body has arrived
        try (whole) {
            proxy = new ProxyFixture();
            proxy.idleTimeoutMs = IDLE_MS;
            proxy.node("a", whole.address()).start();
            stallUpload();
        }
        proxy.assertSettled();
    }

    private void stallUpload() throws Exception {
        try (RawHttpClient client = proxy.client()) {
            client.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nfirst ten.");
            long lastByte = System.nanoTime();
            client.setTimeout((int) LATEST_MS);

            RawHttpClient.Response answer = client.readHead();
            long afterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastByte);
            assertEquals(408, answer.status(), "the stalled upload is refused");
            assertTrue(afterMs >= EARLIEST_MS, "answered " + afterMs + " ms after the last byte, before idleTimeoutMs "
                    + IDLE_MS);
            assertTrue(afterMs <= LATEST_MS, "answered only after " + afterMs + " ms");
        }
    }

    @Test
    void theWaitForAResponseHeadIsNotIdleness() throws Exception {
        TestBackend slow = new TestBackend("slow");
        try {
            slow.delayMillis = 2 * IDLE_MS; // the node works longer than the idle timeout before it answers
            proxy = new ProxyFixture();
            proxy.idleTimeoutMs = IDLE_MS;
            proxy.node("slow", slow.address()).start();
            try (RawHttpClient client = proxy.client()) {
                assertEquals(200, client.get("/").status(), "responseTimeoutMs, not idleTimeoutMs, bounds the wait");
            }
            proxy.assertSettled();
            assertEquals(0, proxy.cluster.counters().failedRequests());
        } finally {
            slow.close();
        }
    }
}
