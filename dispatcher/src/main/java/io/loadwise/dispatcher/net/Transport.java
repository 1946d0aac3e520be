package io.loadwise.dispatcher.net;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.SocketChannel;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event loops shared by every cluster of one dispatcher process: one acceptor thread and
 * {@code workerThreads} I/O threads. A backend connection is always made on the event loop of the client
 * connection it serves, so both halves of a proxied exchange run on one thread.
 *
 * <p>Runs on the {@link TransportKind} it is given: io_uring, epoll or NIO; {@code auto} is native epoll when it
 * is available (Linux, netty-transport-native-epoll on the class path) and NIO otherwise.
 */
public final class Transport implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Transport.class);

    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;
    private final Class<? extends ServerChannel> serverChannelClass;
    private final Class<? extends SocketChannel> socketChannelClass;
    private final int workerThreads;
    private final TransportKind kind;

    /** {@code workerThreads} I/O threads on {@link TransportKind#AUTO}. */
    public Transport(int workerThreads) {
        this(workerThreads, TransportKind.AUTO);
    }

    /**
     * @param workerThreads I/O threads; 0 means {@link #defaultWorkerThreads()}, one per core (not Netty's
     *     own default of two per core: a proxy thread is never blocked, so one per core keeps every core
     *     busy without two threads per core contending for it)
     * @param requested the transport; {@code auto} is resolved here and the choice logged
     * @throws IllegalStateException when the transport asked for cannot run on this machine, naming why
     */
    public Transport(int workerThreads, TransportKind requested) {
        if (workerThreads < 0) {
            throw new IllegalArgumentException("workerThreads: " + workerThreads + " is negative");
        }
        this.workerThreads = workerThreads == 0 ? defaultWorkerThreads() : workerThreads;
        this.kind = requested.resolve();
        IoHandlerFactory factory = kind.ioHandlerFactory();
        this.acceptor = new MultiThreadIoEventLoopGroup(1, factory);
        this.workers = new MultiThreadIoEventLoopGroup(this.workerThreads, factory);
        this.serverChannelClass = kind.serverChannelClass();
        this.socketChannelClass = kind.socketChannelClass();
        log.info("transport: {}{} with {} worker threads, {} buffers", kind.id(),
                requested == TransportKind.AUTO ? " (auto)" : "", this.workerThreads,
                ByteBufAllocator.DEFAULT.getClass().getSimpleName());
    }

    /** One worker thread per core the JVM may use. */
    public static int defaultWorkerThreads() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** The I/O threads of {@link #workers()}. */
    public int workerThreads() {
        return workerThreads;
    }

    /** The concrete transport the event loops run on, never {@link TransportKind#AUTO}. */
    public TransportKind kind() {
        return kind;
    }

    public EventLoopGroup acceptor() {
        return acceptor;
    }

    public EventLoopGroup workers() {
        return workers;
    }

    public Class<? extends ServerChannel> serverChannelClass() {
        return serverChannelClass;
    }

    public Class<? extends SocketChannel> socketChannelClass() {
        return socketChannelClass;
    }

    @Override
    public void close() {
        acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        acceptor.terminationFuture().syncUninterruptibly();
        workers.terminationFuture().syncUninterruptibly();
    }
}
