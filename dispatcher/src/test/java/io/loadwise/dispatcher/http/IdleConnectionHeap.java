package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.testsupport.Configs;
import io.loadwise.dispatcher.testsupport.DispatcherUnderTest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The live heap an idle keep-alive HTTP/1.1 client connection costs the dispatcher, measured without timing: a
 * child JVM ({@link #main}, {@code -XX:+UseSerialGC}, unpooled buffers, one event loop) runs a real dispatcher in
 * front of a {@link TestBackend}; this side opens {@code N} connections, sends one request on each (the idle row's
 * {@code GET /1k.html} with only {@code Host}), reads the whole response and leaves the connection open. The
 * child's old generation in use after {@code System.gc()} is read with the {@code N} connections open, then once
 * they closed (the dispatcher counts them gone); the difference divided by {@code N} is the figure, and what grows
 * with the requests (the recent-requests ring, filled by the warm-up first) is in both readings. The client
 * sockets live in this JVM, so they do not count. A benchmark, not a test: run it with
 * {@code mvn -B -o -pl dispatcher -am test -Dtest=IdleConnectionHeap -Dloadwise.bench.idleHeap=5000
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfuzz.skip=true}; it prints the figures and writes the child's
 * class histogram ({@code jcmd PID GC.class_histogram}, connections open) to {@code target/idle-heap-histogram.txt}.
 */
class IdleConnectionHeap {

    private static final byte[] REQUEST = "GET /1k.html HTTP/1.1\r\nHost: bench\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @Test
    @EnabledIfSystemProperty(named = "loadwise.bench.idleHeap", matches = "\\d+")
    void liveHeapPerIdleConnection() throws Exception {
        int n = Integer.getInteger("loadwise.bench.idleHeap");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-XX:+UseSerialGC", "-Xmx512m", "-Dio.netty.allocator.type=unpooled", "-cp",
                System.getProperty("java.class.path"), IdleConnectionHeap.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<SocketChannel> idle = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
                PrintStream in = new PrintStream(child.getOutputStream(), true, StandardCharsets.UTF_8)) {
            int port = Integer.parseInt(answer(out, "port"));
            try (SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
                for (int i = 0; i < 1_500; i++) { // warm-up, and the recent-requests ring (1,000) full
                    exchange(c);
                }
            }
            for (int i = 0; i < n; i++) {
                SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                exchange(c);
                idle.add(c);
            }
            in.println("measure " + n);
            long open = Long.parseLong(answer(out, "heap"));
            Path histogram = Path.of("target", "idle-heap-histogram.txt");
            Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    String.valueOf(child.pid()), "GC.class_histogram").redirectOutput(histogram.toFile()).start();
            assertTrue(jcmd.waitFor(60, TimeUnit.SECONDS));
            for (SocketChannel c : idle) {
                c.close();
            }
            in.println("measure 0");
            long closed = Long.parseLong(answer(out, "heap"));
            System.out.printf("idle connections %d: live heap with them %d B, once they closed %d B, per connection "
                    + "%.0f B (%.2f KiB); histogram in %s%n", n, open, closed, (open - closed) / (double) n,
                    (open - closed) / (double) n / 1024, histogram.toAbsolutePath());
            in.println("quit");
        } finally {
            for (SocketChannel c : idle) {
                c.close();
            }
            child.destroy();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String answer(BufferedReader out, String key) throws IOException {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith(key + " ")) {
                return line.substring(key.length() + 1).trim();
            }
        }
        throw new IOException("the child ended before saying " + key);
    }

    /** One request and its whole response (the body is the node's name, with Content-Length). */
    private static void exchange(SocketChannel c) throws IOException {
        c.write(ByteBuffer.wrap(REQUEST));
        ByteBuffer buf = ByteBuffer.allocate(4096);
        while (true) {
            if (c.read(buf) < 0) {
                throw new IOException("closed mid-response");
            }
            String text = new String(buf.array(), 0, buf.position(), StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            int cl = text.toLowerCase().indexOf("content-length:");
            if (end > 0 && cl > 0) {
                int length = Integer.parseInt(text.substring(cl + 15, text.indexOf("\r\n", cl)).trim());
                if (buf.position() >= end + 4 + length) {
                    assertEquals("HTTP/1.1 200", text.substring(0, 12), text);
                    return;
                }
            }
        }
    }

    /**
     * The old generation in use: after a full collection of the serial collector every live object is there, and
     * a thread that allocates just after it (a timer, the event loop) takes a new buffer (TLAB) in the young
     * generation, not here, so the reading does not jump by one.
     */
    private static long tenured() {
        long used = 0;
        for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().contains("Tenured")) {
                used += pool.getUsage().getUsed();
            }
        }
        return used;
    }

    /** The child: a dispatcher on one event loop in front of one node; answers "measure" with its live heap. */
    public static void main(String[] args) throws Exception {
        try (TestBackend node = new TestBackend("a")) {
            ClusterConfig cluster = ClusterConfig.builder().name("idle").mode(Mode.HTTP).listen("127.0.0.1:0")
                    .policy("round-robin").idleTimeoutMs(3_600_000).nodes(Configs.nodes(node.address())).build();
            try (DispatcherUnderTest lb = DispatcherUnderTest.start(Configs.config(cluster))) {
                System.out.println("port " + lb.boundAddress("idle").getPort());
                BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                for (String line = commands.readLine(); line != null && !line.equals("quit"); line = commands.readLine()) {
                    if (line.startsWith("measure ")) {
                        int expected = Integer.parseInt(line.substring(8));
                        var counters = lb.dispatcher.cluster("idle").counters();
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        while (counters.activeConnections() != expected && System.nanoTime() - deadline < 0) {
                            Thread.onSpinWait(); // polled: the event loop sees the connections close
                        }
                        if (counters.activeConnections() != expected) {
                            throw new IllegalStateException(counters.activeConnections() + " connections, not " + expected);
                        }
                        node.received.clear(); // the node keeps every request's headers: not the dispatcher's
                        long used = 0;
                        for (int i = 0; i < 5; i++) {
                            System.gc();
                            used = tenured();
                        }
                        System.out.println("heap " + used);
                    }
                }
            }
        }
    }
}
