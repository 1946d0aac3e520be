package io.loadwise.dispatcher.cli;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainDatagramPacket;
import io.netty.channel.unix.DomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service manager's readiness protocol, sd_notify(3): when systemd starts the dispatcher with
 * {@code Type=notify} it sets {@code NOTIFY_SOCKET}, a Unix datagram socket, and waits for {@code READY=1}
 * before it counts the service as started (so units ordered after it start once the ports listen). A reload
 * is bracketed by {@code RELOADING=1} (with {@code MONOTONIC_USEC}, which {@code Type=notify-reload} asks for)
 * and {@code READY=1}; a stop begins with {@code STOPPING=1}.
 *
 * <p>The JDK has no Unix datagram socket, so this uses Netty's epoll transport, which the dispatcher already
 * ships. Without {@code NOTIFY_SOCKET}, or where epoll is missing (then it logs a warning once), every call
 * does nothing. A send never throws and never waits: a service manager that is gone costs a debug line.
 */
final class SystemdNotify implements AutoCloseable {

    static final String SOCKET_VARIABLE = "NOTIFY_SOCKET";
    private static final Logger log = LoggerFactory.getLogger(SystemdNotify.class);
    private static final SystemdNotify NONE = new SystemdNotify(null, null, null);
    /** How long a stop waits for its {@code STOPPING=1} to leave, at most. */
    private static final long STOPPING_WAIT_MILLIS = 500;

    /** {@code null} when notifications are off. */
    private final DomainSocketAddress target;
    private final EventLoopGroup group;
    private final Channel channel;

    private SystemdNotify(DomainSocketAddress target, EventLoopGroup group, Channel channel) {
        this.target = target;
        this.group = group;
        this.channel = channel;
    }

    /** The notifier that sends nothing. */
    static SystemdNotify none() {
        return NONE;
    }

    /** The notifier {@code env} asks for: off unless {@code NOTIFY_SOCKET} names a socket. */
    static SystemdNotify fromEnvironment(Map<String, String> env) {
        String socket = env.get(SOCKET_VARIABLE);
        if (socket == null || socket.isBlank()) {
            return NONE;
        }
        if (!Epoll.isAvailable()) {
            log.warn("{} is set but this platform has no epoll: systemd gets no readiness notification ({})",
                    SOCKET_VARIABLE, Epoll.unavailabilityCause().toString());
            return NONE;
        }
        // '@' names a socket in the abstract namespace, which the kernel spells with a leading NUL
        String path = socket.startsWith("@") ? '\0' + socket.substring(1) : socket;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        try {
            // unbound and unconnected, as sd_notify's sendto(): active from registration, or Netty refuses writes
            Channel channel = new Bootstrap().group(group).channel(EpollDomainDatagramChannel.class)
                    .option(ChannelOption.DATAGRAM_CHANNEL_ACTIVE_ON_REGISTRATION, true).handler(new ChannelInboundHandlerAdapter()).register().syncUninterruptibly().channel();
            log.debug("systemd notifications go to {}", socket);
            return new SystemdNotify(new DomainSocketAddress(path), group, channel);
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            log.warn("{}={}: cannot open a socket to notify systemd: {}", SOCKET_VARIABLE, socket, e.toString());
            return NONE;
        }
    }

    /** Everything listens: the service has started, or a reload is over. */
    void ready() {
        send("READY=1\nSTATUS=running\nMAINPID=" + ProcessHandle.current().pid());
    }

    /** A reload begins; {@link #ready()} ends it. */
    void reloading() {
        send("RELOADING=1\nSTATUS=reloading the configuration\nMONOTONIC_USEC=" + System.nanoTime() / 1000);
    }

    /** A stop begins; waits a moment for the message to leave, since the process is about to end. */
    void stopping() {
        io.netty.util.concurrent.Future<?> sent = send("STOPPING=1\nSTATUS=stopping");
        if (sent != null) {
            sent.awaitUninterruptibly(STOPPING_WAIT_MILLIS);
        }
    }

    /** Sends {@code state}; {@code null} when notifications are off. */
    private io.netty.util.concurrent.Future<?> send(String state) {
        if (target == null) {
            return null;
        }
        return channel.writeAndFlush(new DomainDatagramPacket(Unpooled.copiedBuffer(state, StandardCharsets.UTF_8), target))
                .addListener(f -> {
                    if (!f.isSuccess()) {
                        log.debug("systemd notification {} not sent: {}", state.lines().findFirst().orElse(""),
                                f.cause().toString());
                    }
                });
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }
}
