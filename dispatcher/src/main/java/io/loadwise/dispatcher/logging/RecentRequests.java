package io.loadwise.dispatcher.logging;

import java.util.ArrayList;
import java.util.List;

/**
 * The last {@link #CAPACITY} finished requests, for the console's live request page (issue 33, item 6): a ring that
 * only the access-log writer's thread adds to, so the event loops pay nothing beyond the record they already hand
 * that thread. Readers take a copy under the same lock, which the writer holds for one array store.
 */
public final class RecentRequests {

    public static final int CAPACITY = 1_000;

    private final RecentRequest[] ring;
    private long added;

    RecentRequests(int capacity) {
        this.ring = new RecentRequest[capacity];
    }

    synchronized void add(RecentRequest request) {
        ring[(int) (added % ring.length)] = request;
        added++;
    }

    /** Requests added since the start, including those the ring has forgotten. */
    public synchronized long added() {
        return added;
    }

    /** What the ring holds, newest first. */
    public synchronized List<RecentRequest> newestFirst() {
        int n = (int) Math.min(added, ring.length);
        List<RecentRequest> out = new ArrayList<>(n);
        for (long i = added - 1; i >= added - n; i--) {
            out.add(ring[(int) (i % ring.length)]);
        }
        return List.copyOf(out);
    }
}
