package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.loadwise.dispatcher.testsupport.Await;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainDatagramPacket;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sd_notify(3) as systemd sees it: {@code loadwise run} as a real process with {@code NOTIFY_SOCKET} naming a
 * Unix datagram socket this test owns (as systemd does for {@code Type=notify}) sends {@code READY=1} with its
 * own pid once it listens, {@code RELOADING=1} and {@code READY=1} around a SIGHUP reload, {@code STOPPING=1}
 * on SIGTERM, and exits 0. Without the variable nothing is sent and nothing fails.
 */
class SystemdNotifyProcessTest {

    @TempDir
    Path dir;

    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    private EventLoopGroup group;
    private Channel socket;
    private Path socketPath;
    private Process process;

    @BeforeEach
    void bindNotifySocket() {
        assumeTrue(Epoll.isAvailable(), "Unix datagram sockets need epoll (Linux)");
        group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        socketPath = dir.resolve("notify.sock");
        socket = new Bootstrap().group(group).channel(EpollDomainDatagramChannel.class)
                .handler(new SimpleChannelInboundHandler<DomainDatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DomainDatagramPacket packet) {
                        received.add(packet.content().toString(StandardCharsets.UTF_8));
                    }
                })
                .bind(new DomainSocketAddress(socketPath.toString())).syncUninterruptibly().channel();
    }

    @AfterEach
    void stop() {
        if (process != null) {
            process.destroyForcibly();
        }
        if (socket != null) {
            socket.close().syncUninterruptibly();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    private Process startDispatcher(Map<String, String> env) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path config = dir.resolve("loadwise.json");
        Files.writeString(config, ("{'admin':{'listen':'127.0.0.1:0','token':'test-token-0123456789'},'clusters':[{'name':'web','mode':'http','listen':'127.0.0.1:" + port
                + "','policy':'round-robin','nodes':[{'name':'a','address':'127.0.0.1:9'}]}]}").replace('\'', '"'));
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", "--config", config.toString(), "--log-level", "info",
                "--worker-threads", "1")
                .redirectErrorStream(true).redirectOutput(dir.resolve("dispatcher.log").toFile());
        builder.environment().remove(SystemdNotify.SOCKET_VARIABLE);
        builder.environment().putAll(env);
        return builder.start();
    }

    /** The next datagram as a map of its assignments, within 60 s; fails at once if the process has ended. */
    private Map<String, String> next(String expecting) throws Exception {
        String message = null;
        for (int s = 0; s < 60 && message == null; s++) {
            message = received.poll(1, TimeUnit.SECONDS);
            if (message == null && !process.isAlive() && !expecting.startsWith("STOPPING")) {
                break;
            }
        }
        assertNotNull(message, "no datagram while waiting for " + expecting + "; dispatcher log:\n" + log());
        return Arrays.stream(message.split("\n")).map(l -> l.split("=", 2))
                .collect(Collectors.toMap(kv -> kv[0], kv -> kv.length > 1 ? kv[1] : ""));
    }

    private String log() {
        try {
            Path file = dir.resolve("dispatcher.log");
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }

    private void signal(String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor());
    }

    @Test
    void readyOnStartReloadingAndReadyAroundAReloadStoppingOnSigterm() throws Exception {
        assumeFalse(HupIgnored.inThisProcess(), "this JVM ignores SIGHUP (nohup): no SIGHUP can reach it or its children");
        process = startDispatcher(Map.of(SystemdNotify.SOCKET_VARIABLE, socketPath.toString()));

        Map<String, String> ready = next("READY=1");
        assertEquals("1", ready.get("READY"), ready.toString());
        assertEquals(Long.toString(process.pid()), ready.get("MAINPID"), "the pid systemd must watch is the JVM's");
        assertTrue(log().contains("loadwise running with 1 clusters"), "READY=1 comes once the listeners are up");

        long before = System.nanoTime() / 1000;
        signal("HUP");
        Map<String, String> reloading = next("RELOADING=1");
        assertEquals("1", reloading.get("RELOADING"), reloading.toString());
        long monotonic = Long.parseLong(reloading.get("MONOTONIC_USEC"));
        assertTrue(monotonic >= before && monotonic <= System.nanoTime() / 1000,
                "MONOTONIC_USEC is CLOCK_MONOTONIC at the reload, in µs: " + monotonic);
        assertEquals("1", next("READY=1 after the reload").get("READY"));

        signal("TERM");
        assertEquals("1", next("STOPPING=1").get("STOPPING"));
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the process exits");
        assertEquals(0, process.exitValue(), log());
        assertNull(received.poll(), "nothing after STOPPING=1");
    }

    @Test
    void withoutNotifySocketNothingIsSentAndTheDispatcherRuns() throws Exception {
        process = startDispatcher(Map.of());
        Await.until("the dispatcher runs", Duration.ofSeconds(60), () -> log().contains("loadwise running with"));
        signal("TERM");
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), log());
        assertNull(received.poll(), "no datagram without NOTIFY_SOCKET");
    }
}
