package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.config.NodeConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The user-space CPU of one wrk-like exchange (a 45-byte GET, an NGINX-like 1 KB response with 9 fields)
 * through the real L7 pipeline on embedded channels: no sockets, so none of the kernel time and little of
 * the scheduling noise that hide a few per cent in a wrk A/B on a shared machine. Prints the thread's CPU
 * ns per exchange for each one-second round, and the bytes it allocated per exchange (young-GC work
 * that other threads do, so not in the CPU figure): {@code HeadPathBench SECONDS}. Not a test; run it with the
 * dispatcher's test classes, the testsupport classes and a shipped jar on the class path, alternating two
 * builds, and compare the later rounds (the first ones are the JIT's).
 */
public final class HeadPathBench {
    public static void main(String[] args) {
        int seconds = Integer.parseInt(args[0]);
        byte[] request = "GET /1k.html HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        StringBuilder body = new StringBuilder();
        while (body.length() < 1024) {
            body.append('x');
        }
        byte[] response = ("HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Mon, 23 Nov 2026 23:40:00 GMT\r\n"
                + "Content-Type: text/html\r\nContent-Length: 1024\r\nLast-Modified: Mon, 23 Nov 2026 23:00:00 GMT\r\n"
                + "Connection: keep-alive\r\nETag: \"6563a0a0-400\"\r\nAccept-Ranges: bytes\r\n\r\n" + body)
                .getBytes(StandardCharsets.US_ASCII);
        EmbeddedProxy proxy = new EmbeddedProxy(c -> c.nodes(List.of(new NodeConfig("a", "127.0.0.1:1", null, null, null, null))));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.ThreadMXBean allocations = (com.sun.management.ThreadMXBean) threads;
        long checksum = 0;
        for (int round = 0; round < seconds; round++) {
            long n = 0;
            long cpu0 = threads.getCurrentThreadCpuTime();
            long allocated0 = allocations.getCurrentThreadAllocatedBytes();
            long end = System.nanoTime() + 1_000_000_000L;
            while (System.nanoTime() < end) {
                for (int i = 0; i < 1000; i++) {
                    checksum += exchange(proxy, request, response);
                }
                n += 1000;
            }
            long cpu = threads.getCurrentThreadCpuTime() - cpu0;
            long allocated = allocations.getCurrentThreadAllocatedBytes() - allocated0;
            System.out.printf("round %d ns/exchange %.1f bytes/exchange %.0f%n", round, (double) cpu / n,
                    (double) allocated / n);
        }
        System.out.println("checksum " + checksum);
    }

    private static long exchange(EmbeddedProxy proxy, byte[] request, byte[] response) {
        proxy.client.writeInbound(Unpooled.wrappedBuffer(request));
        EmbeddedChannel node = proxy.node(0);
        long bytes = drain(node);
        node.writeInbound(Unpooled.wrappedBuffer(response));
        return bytes + drain(proxy.client);
    }

    private static long drain(EmbeddedChannel channel) {
        channel.runPendingTasks();
        long bytes = 0;
        Object msg;
        while ((msg = channel.readOutbound()) != null) {
            ByteBuf buf = (ByteBuf) msg;
            bytes += buf.readableBytes();
            buf.release();
        }
        return bytes;
    }
}
