package io.loadwise.dispatcher.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestRoundRobinPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A backend streams 128 MB to a client that stops reading. With backpressure the proxy stops reading
 * the backend too, so the backend blocks after filling the socket buffers; without it the proxy would
 * swallow everything into memory (it did: the whole stream, in a run with backpressure disabled).
 * Then the client drains the stream and gets every byte, in order.
 */
class LargeTransferTest {

    private static final long TOTAL = 128L * 1024 * 1024;
    private static final int CHUNK = 64 * 1024;
    /**
     * Kernel socket buffers on both legs (measured: about 4 MB here)
     * plus the proxy's single in-flight read; a quarter of what an unbounded proxy takes in.
     */
    private static final long BOUND = 32L * 1024 * 1024;
    /** What the proxy may hold itself while stalled: one read batch, plus allocator chunk granularity. */
    private static final long DIRECT_MEMORY_BOUND = 16L * 1024 * 1024;

    /** Byte {@code i} of the stream is {@code i % 251}; PATTERN[j] == j % 251 for any window start. */
    private static final byte[] PATTERN = new byte[CHUNK + 251 * 1024];

    static {
        for (int j = 0; j < PATTERN.length; j++) {
            PATTERN[j] = (byte) (j % 251);
        }
    }

    @Test
    void aSlowReaderHoldsTheBackendBackAndStillGetsEveryByte() throws Exception {
        AtomicLong sent = new AtomicLong();
        try (Transport transport = new Transport(1);
                ServerSocket backend = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread producer = new Thread(() -> produce(backend, sent), "producer");
            producer.setDaemon(true);
            producer.start();
            VirtualCluster cluster = new VirtualCluster(Configs.tcp("bulk", TestRoundRobinPolicy.ID,
                    Configs.nodes("127.0.0.1:" + backend.getLocalPort())), PolicyRegistry.load(), System::nanoTime);
            TcpProxyServer proxy = new TcpProxyServer(cluster, transport);
            InetSocketAddress address = proxy.start();
            long directBefore = usedDirectMemory();
            try (Socket client = new Socket()) {
                client.setReceiveBufferSize(64 * 1024);
                client.connect(address);
                client.setSoTimeout(10_000);

                long stalledAt = awaitStall(sent, cluster);
                assertTrue(stalledAt < BOUND, "backend got " + stalledAt + " bytes out while the client read none");
                long held = usedDirectMemory() - directBefore;
                assertTrue(held < DIRECT_MEMORY_BOUND, "the stalled proxy holds " + held + " bytes of direct memory");

                long received = drainAndVerify(client.getInputStream());
                assertEquals(TOTAL, received);
                assertEquals(TOTAL, sent.get());
            } finally {
                proxy.close();
            }
            Await.until("tunnel closed", () -> cluster.counters().activeConnections() == 0);
            assertEquals(TOTAL, cluster.counters().read().bytesOut());
        }
    }

    /** Direct memory Netty has allocated, or the JDK's count when Netty does not track it. */
    private static long usedDirectMemory() {
        long netty = io.netty.util.internal.PlatformDependent.usedDirectMemory();
        if (netty >= 0) {
            return netty;
        }
        for (java.lang.management.BufferPoolMXBean pool
                : java.lang.management.ManagementFactory.getPlatformMXBeans(java.lang.management.BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        throw new IllegalStateException("no direct buffer pool bean");
    }

    private static void produce(ServerSocket server, AtomicLong sent) {
        try (Socket s = server.accept(); OutputStream out = s.getOutputStream()) {
            long offset = 0;
            while (offset < TOTAL) {
                out.write(PATTERN, (int) (offset % 251), CHUNK);
                offset += CHUNK;
                sent.set(offset);
            }
        } catch (IOException e) {
            // the client side reports the shortfall
        }
    }

    /**
     * Waits until the producer has made no progress for 1.5 s; returns what it had sent. The window is
     * long because a CPU-starved producer also makes no progress for a while on a loaded machine.
     */
    private static long awaitStall(AtomicLong sent, VirtualCluster cluster) {
        long[] last = {-1};
        long[] since = {System.nanoTime()};
        Await.until("backend blocked by backpressure", Duration.ofSeconds(30), () -> {
            long now = sent.get();
            if (now != last[0]) {
                last[0] = now;
                since[0] = System.nanoTime();
                return false;
            }
            // The proxy must have forwarded something: a stall before it ran at all proves nothing.
            return now > 0 && cluster.counters().read().bytesOut() > 0 && System.nanoTime() - since[0] > 1_500_000_000L;
        });
        return last[0];
    }

    private static long drainAndVerify(InputStream in) throws IOException {
        byte[] buf = new byte[CHUNK];
        long offset = 0;
        int n;
        while ((n = in.read(buf)) >= 0) {
            int start = (int) (offset % 251);
            if (java.util.Arrays.mismatch(buf, 0, n, PATTERN, start, start + n) >= 0) {
                throw new AssertionError("corrupted bytes after offset " + offset);
            }
            offset += n;
        }
        return offset;
    }
}
