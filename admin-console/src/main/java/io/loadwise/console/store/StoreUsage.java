package io.loadwise.console.store;

import java.util.List;
import java.util.Locale;

/**
 * What the metric stores use and what the limits refused, as {@code GET /api/metrics/stores} shows it.
 *
 * @param usedBytes all files under the store directory (stores, journals, files set aside)
 * @param freeBytes free space of the file system, -1 when it cannot be read
 * @param reserveBytes free space the stores never eat into, -1 when it cannot be read
 */
public record StoreUsage(long usedBytes, long budgetBytes, int storeCount, long freeBytes, long reserveBytes,
        long retentionMillis, List<Refused> refused, List<PendingRemoval> pendingRemoval) {

    /** Above this share of the budget the usage itself is a warning. */
    static final double WARN_SHARE = 0.9;

    /** A cluster ({@code node == null}) or node whose store, or some of whose series, is not recorded. */
    public record Refused(String cluster, String node, String what, String reason, long sinceMillis) {
    }

    /** The store of a removed cluster or node, deleted at {@code deleteAtMillis} unless it comes back. */
    public record PendingRemoval(String cluster, String node, long deleteAtMillis) {
    }

    public StoreUsage {
        refused = List.copyOf(refused);
        pendingRemoval = List.copyOf(pendingRemoval);
    }

    /** What an operator should know, or {@code null} when all is well. */
    public String warning() {
        if (!refused.isEmpty()) {
            Refused first = refused.get(0);
            return refused.size() + (refused.size() == 1 ? " cluster or node is" : " clusters or nodes are")
                    + " not fully recorded; first: " + (first.node() == null ? first.cluster()
                            : first.cluster() + "/" + first.node()) + ": " + first.reason();
        }
        if (usedBytes > WARN_SHARE * budgetBytes) {
            return String.format(Locale.ROOT, "the metric stores use %.0f %% of their budget (admin.metricsDiskBudgetMb)",
                    100.0 * usedBytes / budgetBytes);
        }
        return null;
    }
}
