package io.loadwise.dispatcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
