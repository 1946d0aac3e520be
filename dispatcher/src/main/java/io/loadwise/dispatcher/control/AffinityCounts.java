package io.loadwise.dispatcher.control;

/**
 * Session-affinity outcomes of an HTTP cluster since its listener started: requests that named a live
 * node by session route or affinity cookie (hits), that named a node no longer usable (misses, sent to
 * the policy), and that carried no affinity at all (unpinned); of the pinned requests whose node was gone, drained
 * or failed them, those that went to another node of its replication domain (domainPartner).
 */
public record AffinityCounts(long hits, long misses, long unpinned, long domainPartner) {

    public AffinityCounts(long hits, long misses, long unpinned) {
        this(hits, misses, unpinned, 0);
    }
}
