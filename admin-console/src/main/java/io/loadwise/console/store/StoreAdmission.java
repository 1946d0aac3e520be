package io.loadwise.console.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Decides whether the stores may take more disk: within the budget, and leaving a reserve of free space
 * on the file system. The reserve is 5 % of the file system but at most 1 GiB: on a small disk the
 * percentage protects what else runs on it, on a large one 1 GiB is plenty of headroom and 5 % (say
 * 100 GB of 2 TB) would refuse stores on a disk that is far from full.
 */
final class StoreAdmission {

    static final long MAX_RESERVE_BYTES = 1024L * StoreLimits.MB;
    static final int RESERVE_PERCENT = 5;

    private final Path root;
    private final long budgetBytes;
    private final DiskSpace disk;

    StoreAdmission(Path root, long budgetBytes, DiskSpace disk) {
        this.root = root;
        this.budgetBytes = budgetBytes;
        this.disk = disk;
    }

    /** The free space that must remain on a file system of {@code totalBytes}. */
    static long reserveBytes(long totalBytes) {
        return Math.min(MAX_RESERVE_BYTES, totalBytes / 100 * RESERVE_PERCENT);
    }

    /**
     * Why the stores may not grow by {@code addedBytes} (counted against the budget) writing
     * {@code writtenBytes} (the new file, which exists next to the old one while a store is rewritten),
     * or {@code null} when they may.
     *
     * @param usedBytes what the stores use now
     */
    String refusal(long usedBytes, long addedBytes, long writtenBytes) {
        if (usedBytes + addedBytes > budgetBytes) {
            return "the metric stores use " + mb(usedBytes) + " of their budget of " + mb(budgetBytes)
                    + " (admin.metricsDiskBudgetMb) and this needs " + mb(addedBytes) + " more";
        }
        long usable;
        long reserve;
        try {
            usable = disk.usableBytes();
            reserve = reserveBytes(disk.totalBytes());
        } catch (IOException | RuntimeException e) {
            return "cannot read the free space of " + root + " (" + e.getMessage() + ")";
        }
        if (usable - writtenBytes < reserve) {
            return "the file system of " + root + " has " + mb(usable) + " free, this needs " + mb(writtenBytes)
                    + " and " + mb(reserve) + " must stay free (5 % of the file system, at most 1 GiB)";
        }
        return null;
    }

    long budgetBytes() {
        return budgetBytes;
    }

    static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / (double) StoreLimits.MB);
    }
}
