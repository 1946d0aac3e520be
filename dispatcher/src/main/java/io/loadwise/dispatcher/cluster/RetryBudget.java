package io.loadwise.dispatcher.cluster;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many retries a cluster may have in progress at once (issue 15, item 5): {@code retryBudgetPercent}
 * of its active requests, but at least {@link #MIN_CONCURRENT} so that a quiet cluster can retry at all.
 * Envoy's retry budget (budget_percent 20, min_retry_concurrency 3): when many nodes fail together,
 * retries cannot multiply the load on the ones left. Lock-free; shared by every event loop.
 */
public final class RetryBudget {

    /** Retries allowed in progress whatever the load. */
    public static final int MIN_CONCURRENT = 3;

    private final int percent;
    private final AtomicInteger inProgress = new AtomicInteger();

    /** @param percent 0 turns retries off */
    public RetryBudget(int percent) {
        this.percent = percent;
    }

    /**
     * Takes a retry from the budget when the retries in progress stay within it; pair each {@code true} with
     * one {@link #release()}.
     *
     * @param activeRequests the cluster's requests in progress, the one to retry included
     */
    public boolean tryAcquire(int activeRequests) {
        if (percent == 0) {
            return false;
        }
        int allowed = Math.max(MIN_CONCURRENT, (int) ((long) activeRequests * percent / 100));
        int now;
        do {
            now = inProgress.get();
            if (now >= allowed) {
                return false;
            }
        } while (!inProgress.compareAndSet(now, now + 1));
        return true;
    }

    public void release() {
        inProgress.decrementAndGet();
    }

    /** Retries in progress now. */
    public int inProgress() {
        return inProgress.get();
    }
}
