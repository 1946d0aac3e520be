package io.loadwise.dispatcher.net;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import java.util.Arrays;
import java.util.List;

/**
 * The I/O mechanism of the event loops: the {@code transport} setting. {@link #AUTO} is resolved once, at
 * start, to a concrete one ({@link #resolve()}); a concrete one that this machine cannot run is an error, never
 * a silent fallback, so that a benchmark or a tuned deployment runs on what it asked for.
 */
public enum TransportKind {
    /** epoll when available, else NIO; {@value #DEFAULT_PROPERTY} may name another default. */
    AUTO("auto"),
    /** Linux io_uring: batched submissions instead of one syscall per read, write and readiness change. */
    IO_URING("io_uring"),
    /** Linux epoll, edge-triggered. */
    EPOLL("epoll"),
    /** Java NIO selectors: everywhere. */
    NIO("nio");

    /**
     * A JVM system property that {@link #AUTO} resolves to when it is set, so that a test suite or a benchmark
     * can run everything on one transport without touching each configuration ({@code -Dloadwise.transport=io_uring}).
     */
    public static final String DEFAULT_PROPERTY = "loadwise.transport";

    private final String id;

    TransportKind(String id) {
        this.id = id;
    }

    /** The name in the configuration file and on the command line. */
    public String id() {
        return id;
    }

    /** Every {@link #id()}, in declaration order: for messages and completion. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(TransportKind::id).toList();
    }

    /** The kind with this {@link #id()}, or {@code null} when there is none. */
    public static TransportKind byId(String id) {
        for (TransportKind kind : values()) {
            if (kind.id.equals(id)) {
                return kind;
            }
        }
        return null;
    }

    /**
     * The concrete kind to run: this one, or for {@link #AUTO} the kind {@value #DEFAULT_PROPERTY} names, else
     * epoll when available, else NIO.
     *
     * @throws IllegalStateException when the kind (asked for, or named by the property) cannot run here, with
     *     the reason Netty gives; or when the property names no transport
     */
    public TransportKind resolve() {
        TransportKind kind = this;
        if (kind == AUTO) {
            kind = fromProperty();
            if (kind == AUTO) {
                return Epoll.isAvailable() ? EPOLL : NIO;
            }
        }
        Throwable cause = kind.unavailabilityCause();
        if (cause != null) {
            throw new IllegalStateException("transport " + kind.id + " is not available on this machine: " + cause,
                    cause);
        }
        return kind;
    }

    private static TransportKind fromProperty() {
        String value = System.getProperty(DEFAULT_PROPERTY);
        if (value == null || value.isBlank()) {
            return AUTO;
        }
        TransportKind kind = byId(value.trim());
        if (kind == null) {
            throw new IllegalStateException("-D" + DEFAULT_PROPERTY + "=" + value + ": unknown transport, expected one of "
                    + String.join(", ", ids()));
        }
        return kind;
    }

    /** Why this kind cannot run here, or {@code null} when it can. */
    Throwable unavailabilityCause() {
        return switch (this) {
            case IO_URING -> IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
            case EPOLL -> Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
            case NIO, AUTO -> null;
        };
    }

    IoHandlerFactory ioHandlerFactory() {
        return switch (this) {
            case IO_URING -> IoUringIoHandler.newFactory();
            case EPOLL -> EpollIoHandler.newFactory();
            case NIO -> NioIoHandler.newFactory();
            case AUTO -> throw unresolved();
        };
    }

    /** The UDP channel of this transport (QUIC listeners). */
    public Class<? extends io.netty.channel.socket.DatagramChannel> datagramChannelClass() {
        return switch (this) {
            case IO_URING -> io.netty.channel.uring.IoUringDatagramChannel.class;
            case EPOLL -> io.netty.channel.epoll.EpollDatagramChannel.class;
            case NIO -> io.netty.channel.socket.nio.NioDatagramChannel.class;
            case AUTO -> throw unresolved();
        };
    }

    Class<? extends ServerChannel> serverChannelClass() {
        return switch (this) {
            case IO_URING -> IoUringServerSocketChannel.class;
            case EPOLL -> EpollServerSocketChannel.class;
            case NIO -> NioServerSocketChannel.class;
            case AUTO -> throw unresolved();
        };
    }

    Class<? extends SocketChannel> socketChannelClass() {
        return switch (this) {
            case IO_URING -> IoUringSocketChannel.class;
            case EPOLL -> EpollSocketChannel.class;
            case NIO -> NioSocketChannel.class;
            case AUTO -> throw unresolved();
        };
    }

    private static IllegalStateException unresolved() {
        return new IllegalStateException("transport auto must be resolved first");
    }
}
