package io.loadwise.dispatcher.http;

import java.util.concurrent.atomic.LongAdder;

/**
 * Session-affinity outcomes of one HTTP cluster, for the REST API and console.
 *
 * <ul>
 *   <li>hit: the request carried a live affinity (JSESSIONID route or the dispatcher's cookie) and went
 *       to that node;
 *   <li>miss: it carried one, but the node is unknown or not usable, so the policy chose;
 *   <li>unpinned: it carried none, so the policy chose and the response got the affinity cookie;
 *   <li>domain partner: a miss (or a pinned request whose node failed it) that went to another node of the
 *       pinned node's replication domain, counted among the misses when it was one.
 * </ul>
 */
public final class AffinityCounters {

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder unpinned = new LongAdder();
    private final LongAdder domainPartner = new LongAdder();

    void recordHit() {
        hits.increment();
    }

    void recordMiss() {
        misses.increment();
    }

    void recordUnpinned() {
        unpinned.increment();
    }

    void recordDomainPartner() {
        domainPartner.increment();
    }

    public long domainPartner() {
        return domainPartner.sum();
    }

    public long hits() {
        return hits.sum();
    }

    public long misses() {
        return misses.sum();
    }

    public long unpinned() {
        return unpinned.sum();
    }
}
