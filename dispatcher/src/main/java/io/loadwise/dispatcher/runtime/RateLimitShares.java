package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.control.ReplicaInfo;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replica of a shared store enforces 1/N of each rate limit, N the live replicas: the registry is read off
 * the event loops (an etcd round trip) every {@link #PERIOD_MS}, on a thread of its own; while it cannot be
 * read, the last share stays.
 */
final class RateLimitShares implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RateLimitShares.class);
    static final long PERIOD_MS = 5_000;

    private final ScheduledExecutorService timer;

    RateLimitShares(RoutedListeners routed, Supplier<List<ReplicaInfo>> replicas) {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadwise-replica-share");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                routed.shareAmong(Math.max(1, replicas.get().size()));
            } catch (RuntimeException e) {
                log.debug("replica registry unreadable; rate limit shares stay: {}", e.toString());
            }
        }, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
