package io.loadwise.dispatcher.http3;

import io.loadwise.dispatcher.metrics.QuicCounts;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** The counters of one HTTP/3 listener side, written from its event loop and read by the status API. */
final class QuicStats {

    private final LongAdder connections = new LongAdder();
    private final AtomicLong open = new AtomicLong();
    private final LongAdder connectionsRefused = new LongAdder();
    private final LongAdder streams = new LongAdder();
    private final LongAdder streamsRefused = new LongAdder();
    private final LongAdder streamsServed = new LongAdder();
    private final LongAdder excessiveLoad = new LongAdder();

    void connectionOpened() {
        connections.increment();
        open.incrementAndGet();
    }

    void connectionClosed() {
        open.decrementAndGet();
    }

    void connectionRefused() {
        connectionsRefused.increment();
    }

    void streamOpened() {
        streams.increment();
    }

    void streamServed() {
        streamsServed.increment();
    }

    void streamRefused() {
        streamsRefused.increment();
    }

    void excessiveLoad() {
        excessiveLoad.increment();
    }

    QuicCounts read(RetryTokens tokens) {
        return new QuicCounts(connections.sum(), open.get(), connectionsRefused.sum(), tokens.issued(),
                tokens.refused(), streams.sum(), streamsRefused.sum(), excessiveLoad.sum());
    }
}
