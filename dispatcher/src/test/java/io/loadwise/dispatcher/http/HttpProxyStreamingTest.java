package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.PlatformDependent;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Bodies stream through in both directions: chunked, huge, 100-continue, and upgraded connections. */
class HttpProxyStreamingTest {

    private static final long LARGE = 256L * 1024 * 1024;
    /** Direct memory the proxy may hold while a large body streams through (watermarks are 64 KB). */
    private static final long DIRECT_MEMORY_BOUND = 48L * 1024 * 1024;

    private StreamingBackend backend;
    private ProxyFixture proxy;

    @BeforeEach
    void setUp() throws Exception {
        backend = new StreamingBackend();
        proxy = new ProxyFixture().node("stream", backend.address()).start();
    }

    @AfterEach
    void tearDown() {
        proxy.close();
        backend.close();
    }

    @Test
    void chunkedUploadAndChunkedDownloadPassThrough() throws Exception {
        try (RawHttpClient client = proxy.client()) {
            client.write("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
            StringBuilder sent = new StringBuilder();
            for (int i = 0; i < 50; i++) {
                String part = "part-" + i + "-" + "x".repeat(i * 100) + ";";
                sent.append(part);
                client.write(Integer.toHexString(part.length()) + "\r\n" + part + "\r\n");
            }
            client.write("0\r\n\r\n");
            RawHttpClient.Response echoed = client.read(false);
            assertEquals(200, echoed.status());
            assertEquals("chunked", echoed.header("transfer-encoding"));
            assertEquals(sent.toString(), echoed.text());

            RawHttpClient.Response download = client.get("/download?bytes=3000000&chunked");
            assertEquals("chunked", download.header("transfer-encoding"));
            byte[] expected = new byte[3_000_000];
            byte[] block = new byte[StreamingBackend.BLOCK];
            for (int offset = 0; offset < expected.length; offset += block.length) {
                StreamingBackend.fill(block, offset);
                System.arraycopy(block, 0, expected, offset, Math.min(block.length, expected.length - offset));
            }
            assertArrayEquals(expected, download.body());
        }
        proxy.assertSettled();
    }

    @Test
    void nodeAnsweringBeforeTheBodyEndsIsRelayedAndTheConnectionClosedAfterwards() throws Exception {
        try (ScriptedBackend early = new ScriptedBackend(
                        "HTTP/1.1 413 Payload Too Large\r\nContent-Length: 5\r\n\r\nearly", false);
                ProxyFixture earlyProxy = new ProxyFixture().node("early", early.address()).start();
                RawHttpClient client = earlyProxy.client()) {
            client.write("POST /big HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n");
            RawHttpClient.Response answer = client.read(false);
            assertEquals(413, answer.status());
            assertEquals("early", answer.text());
            client.write("0\r\n\r\n");
            assertTrue(client.closedWithin(3_000), "the rest of the body cannot be resynchronised");
            earlyProxy.assertSettled();
        }
    }

    @Test
    void expectContinueIsForwardedAndTheNodesContinueRelayed() throws Exception {
        try (RawHttpClient client = proxy.client()) {
            client.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\nExpect: 100-continue\r\n\r\n");
            RawHttpClient.Response interim = client.readHead();
            assertEquals(100, interim.status(), "the 100 comes before any body byte was sent");
            client.write("hello world");
            RawHttpClient.Response result = client.read(false);
            assertEquals(200, result.status());
            CRC32 crc = new CRC32();
            crc.update("hello world".getBytes(StandardCharsets.US_ASCII));
            assertEquals("11 " + crc.getValue(), result.text());
            assertEquals(200, client.get("/download?bytes=10").status(), "the connection is still in sync");
        }
        proxy.assertSettled();
    }

    @Test
    void quarterGigabyteUploadStreamsWithBoundedMemory() throws Exception {
        DirectMemoryWatch watch = new DirectMemoryWatch();
        CRC32 crc = new CRC32();
        try (RawHttpClient client = proxy.client()) {
            client.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + LARGE + "\r\n\r\n");
            OutputStream out = client.output();
            byte[] block = new byte[StreamingBackend.BLOCK];
            for (long sent = 0; sent < LARGE; sent += block.length) {
                StreamingBackend.fill(block, sent);
                crc.update(block);
                out.write(block);
            }
            out.flush();
            RawHttpClient.Response response = client.read(false);
            assertEquals(200, response.status());
            assertEquals(LARGE + " " + crc.getValue(), response.text());
        } finally {
            watch.stop();
        }
        assertTrue(watch.maxGrowth() < DIRECT_MEMORY_BOUND, "direct memory grew by " + watch.maxGrowth());
        proxy.assertSettled();
        assertTrue(proxy.cluster.counters().read().bytesIn() > LARGE);
    }

    @Test
    void quarterGigabyteDownloadStreamsWithBoundedMemory() throws Exception {
        DirectMemoryWatch watch = new DirectMemoryWatch();
        try (RawHttpClient client = proxy.client()) {
            client.write("GET /download?bytes=" + LARGE + " HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttpClient.Response head = client.readHead();
            assertEquals(200, head.status());
            assertEquals(String.valueOf(LARGE), head.header("content-length"));
            InputStream in = client.input();
            byte[] received = new byte[StreamingBackend.BLOCK];
            byte[] expected = new byte[StreamingBackend.BLOCK];
            for (long offset = 0; offset < LARGE; offset += received.length) {
                in.readNBytes(received, 0, received.length);
                StreamingBackend.fill(expected, offset);
                assertArrayEquals(expected, received, "block at " + offset);
            }
        } finally {
            watch.stop();
        }
        assertTrue(watch.maxGrowth() < DIRECT_MEMORY_BOUND, "direct memory grew by " + watch.maxGrowth());
        proxy.assertSettled();
    }

    @Test
    void upgradedConnectionIsTunnelledAsRawBytes() throws Exception {
        try (ScriptedBackend echo = ScriptedBackend.upgrade();
                ProxyFixture upgradeProxy = new ProxyFixture().node("ws", echo.address()).start();
                RawHttpClient client = upgradeProxy.client()) {
            client.write("GET /socket HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n");
            RawHttpClient.Response switched = client.readHead();
            assertEquals(101, switched.status());
            assertEquals("echo", switched.header("upgrade"));
            assertEquals("upgrade", switched.header("connection").toLowerCase());
            String head = echo.heads.peek();
            assertTrue(head.contains("upgrade: echo") || head.contains("Upgrade: echo"), head);
            for (String frame : new String[] {"\u0000\u0001 not http at all\r\n\r\n", "GET / HTTP/1.1\r\n\r\n"}) {
                byte[] bytes = frame.getBytes(StandardCharsets.ISO_8859_1);
                client.write(bytes);
                assertArrayEquals(bytes, client.input().readNBytes(bytes.length));
            }
            client.close();
            upgradeProxy.assertConnectionsClosed();
            upgradeProxy.assertSettled();
        }
    }

    /**
     * Table 2 bytes are the bytes on the wire, exactly, on both sides, before and after the connection
     * becomes a tunnel: the codecs count them while they frame HTTP/1.1 and leave a meter behind when they go.
     */
    @Test
    void wireBytesCountExactlyOnBothSidesBeforeAndAfterAnUpgrade() throws Exception {
        try (ScriptedBackend echo = ScriptedBackend.upgrade();
                ProxyFixture upgradeProxy = new ProxyFixture().node("ws", echo.address()).start();
                RawHttpClient client = upgradeProxy.client()) {
            String request = "GET /socket HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n";
            client.write(request);
            long headOut = 0;
            StringBuilder head = new StringBuilder();
            while (head.indexOf("\r\n\r\n") < 0) {
                int c = client.input().read();
                assertTrue(c >= 0, "the 101 head ends");
                head.append((char) c);
                headOut++;
            }
            assertTrue(head.toString().startsWith("HTTP/1.1 101 "), head.toString());
            long frames = 0;
            for (String frame : new String[] {"one frame\r\n\r\n", "GET / HTTP/1.1\r\n\r\n", "x"}) {
                byte[] bytes = frame.getBytes(StandardCharsets.ISO_8859_1);
                client.write(bytes);
                assertArrayEquals(bytes, client.input().readNBytes(bytes.length));
                frames += bytes.length;
            }
            client.close();
            upgradeProxy.assertConnectionsClosed();
            var clusterBytes = upgradeProxy.cluster.counters().read();
            assertEquals(request.length() + frames, clusterBytes.bytesIn(), "client to cluster");
            assertEquals(headOut + frames, clusterBytes.bytesOut(), "cluster to client");
            var nodeBytes = upgradeProxy.node("ws").counters().read();
            assertEquals(echo.heads.peek().length() + frames, nodeBytes.bytesIn(), "proxy to node");
            assertEquals(ScriptedBackend.SWITCHING.length() + frames, nodeBytes.bytesOut(), "node to proxy");
        }
    }

    @Test
    void idleTunnelIsClosedAfterTheIdleTimeout() throws Exception {
        try (ScriptedBackend echo = ScriptedBackend.upgrade(); ProxyFixture upgradeProxy = new ProxyFixture()) {
            upgradeProxy.idleTimeoutMs = 300;
            upgradeProxy.node("ws", echo.address()).start();
            try (RawHttpClient client = upgradeProxy.client()) {
                client.write("GET /socket HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n");
                assertEquals(101, client.readHead().status());
                client.write("ping");
                assertEquals("ping", new String(client.input().readNBytes(4), StandardCharsets.ISO_8859_1));
                assertTrue(client.closedWithin(3_000), "an idle tunnel is closed too (QoS-01)");
            }
            upgradeProxy.assertConnectionsClosed();
        }
    }

    /** Samples the direct memory Netty (or the JDK, when Netty cannot count it) has allocated. */
    private static final class DirectMemoryWatch {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLong max = new AtomicLong();
        private final long baseline = used();
        private final Thread thread;

        DirectMemoryWatch() {
            thread = new Thread(() -> {
                while (running.get()) {
                    max.accumulateAndGet(used(), Math::max);
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "direct-memory-watch");
            thread.setDaemon(true);
            thread.start();
        }

        static long used() {
            long netty = PlatformDependent.usedDirectMemory();
            if (netty >= 0) {
                return netty;
            }
            for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
                if (pool.getName().equals("direct")) {
                    return pool.getMemoryUsed();
                }
            }
            throw new IllegalStateException("no direct buffer pool bean");
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join();
            max.accumulateAndGet(used(), Math::max);
        }

        long maxGrowth() {
            return max.get() - baseline;
        }
    }
}
