package io.loadwise.dispatcher.cluster;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which answers of a node count as its failures (issue 32), so that a node that answers errors faster than its
 * peers does not look idle: every answer with a status of 500 or more, and a 404 on a path that another node
 * of the cluster answered with a status below 400 during the last {@value #WINDOW_MILLIS} ms. Such an answer
 * counts in the node's {@link NodeState#recentFailures()} and, through {@link OutcomeSink}, in outlier
 * detection (a 404 as a 5xx, not a gateway failure). Any other answer counts as a success, as before; so does
 * a 404 on a path that no other node answered below 400 in that window (a page that does not exist anywhere).
 *
 * <p>A path is the request target up to its query. Per node, a table of {@value #SLOTS} slots remembers the
 * paths it served: the slot of a path's hash holds that hash and the time, packed in one {@code long}. Two paths
 * in one slot evict each other, so a 404 may go uncounted, never counted wrongly (the hash must match).
 * Called on the event loops once per answer: a hash over the path, one read, and at most one write per path and
 * node per {@value #REFRESH_MILLIS} ms; a 404 reads the slot of every other node. Nothing is kept for a
 * cluster of one node (its 404s have nothing to be compared with).
 */
public final class FailedAnswers {

    static final int SLOTS = 1024;
    static final long WINDOW_MILLIS = 10_000;
    static final long REFRESH_MILLIS = 1_000;
    /** The packed time's unit: 2^20 ns, about 1 ms; 32 bits of it wrap after about 52 days, compared modulo. */
    private static final int TIME_SHIFT = 20;
    private static final int WINDOW_UNITS = (int) ((WINDOW_MILLIS * 1_000_000L) >> TIME_SHIFT);
    private static final int REFRESH_UNITS = (int) ((REFRESH_MILLIS * 1_000_000L) >> TIME_SHIFT);

    private final int nodes;
    /** Node i's slots are [i * SLOTS, (i + 1) * SLOTS); null for a cluster of fewer than two nodes. */
    private final AtomicLongArray served;

    FailedAnswers(int nodes) {
        this.nodes = nodes;
        this.served = nodes > 1 ? new AtomicLongArray(nodes * SLOTS) : null;
    }

    /**
     * The node answered {@code target} with {@code status} at {@code nowNanos} (the caller's clock, read for the
     * answer anyway: a clock read is most of this method's cost): remembers the paths it serves and says whether
     * the answer is a failure.
     */
    public boolean failed(int nodeIndex, String target, int status, long nowNanos) {
        if (status >= 500) {
            return true;
        }
        if (served == null || (status >= 400 && status != 404)) {
            return false;
        }
        int hash = pathHash(target);
        int slot = hash & (SLOTS - 1);
        int now = (int) (nowNanos >> TIME_SHIFT);
        if (status != 404) {
            int i = nodeIndex * SLOTS + slot;
            long entry = served.get(i);
            if ((int) (entry >>> 32) != hash || now - (int) entry >= REFRESH_UNITS) {
                served.lazySet(i, ((long) hash << 32) | (now & 0xFFFF_FFFFL));
            }
            return false;
        }
        for (int other = 0; other < nodes; other++) {
            if (other != nodeIndex) {
                long entry = served.get(other * SLOTS + slot);
                if (entry != 0 && (int) (entry >>> 32) == hash && now - (int) entry <= WINDOW_UNITS) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A hash of the target up to its query, spread so that its low bits pick the slot. */
    static int pathHash(String target) {
        int h = 0;
        for (int i = 0, n = target.length(); i < n; i++) {
            char c = target.charAt(i);
            if (c == '?') {
                break;
            }
            h = 31 * h + c;
        }
        return h ^ (h >>> 16);
    }
}
