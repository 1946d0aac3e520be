package io.loadwise.dispatcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.Test;

class TransportTest {

    private static int eventLoops(Transport transport) {
        int count = 0;
        for (EventExecutor ignored : transport.workers()) {
            count++;
        }
        return count;
    }

    @Test
    void startsTheWorkerThreadsItIsGiven() {
        try (Transport transport = new Transport(3)) {
            assertEquals(3, transport.workerThreads());
            assertEquals(3, eventLoops(transport));
        }
    }

    @Test
    void zeroMeansOnePerCoreNotNettysTwoPerCore() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(cores, Transport.defaultWorkerThreads());
        try (Transport transport = new Transport(0)) {
            assertEquals(cores, transport.workerThreads());
            assertEquals(cores, eventLoops(transport));
        }
    }

    @Test
    void aNegativeCountIsRefused() {
        assertEquals("workerThreads: -1 is negative",
                assertThrows(IllegalArgumentException.class, () -> new Transport(-1)).getMessage());
    }

    @Test
    void ioUringAskedForRunsOnIoUring() {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable here: " + IoUring.unavailabilityCause());
        try (Transport transport = new Transport(1, TransportKind.IO_URING)) {
            assertEquals(TransportKind.IO_URING, transport.kind());
            assertEquals(IoUringServerSocketChannel.class, transport.serverChannelClass());
            assertEquals(IoUringSocketChannel.class, transport.socketChannelClass());
        }
    }

    @Test
    void epollAskedForRunsOnEpoll() {
        assumeTrue(Epoll.isAvailable(), () -> "epoll unavailable here: " + Epoll.unavailabilityCause());
        try (Transport transport = new Transport(1, TransportKind.EPOLL)) {
            assertEquals(TransportKind.EPOLL, transport.kind());
            assertEquals(EpollSocketChannel.class, transport.socketChannelClass());
        }
    }
}
