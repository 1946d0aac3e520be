package io.loadwise.dispatcher.control;

import java.util.List;

/**
 * What applying a new configuration did, cluster by cluster.
 *
 * @param added clusters started
 * @param removed clusters drained and stopped
 * @param replaced clusters rebuilt (nodes, mode, listen or a setting that is read at start changed): the
 *     new one took over the listening socket, or bound its new address, and the old one drains
 * @param updated clusters changed in place (policy, its options, node weights, enabled flags)
 * @param unchanged clusters left as they were
 * @param restartNeeded top-level fields that changed but take effect only at the next start
 *     ({@code admin}, {@code logging}, {@code maxClientConnections}, {@code workerThreads}, {@code transport},
 *     {@code config}, {@code shutdownGraceMs})
 * @param failed clusters that could not be started (their address was still in use); the messages
 */
public record ReloadResult(List<String> added, List<String> removed, List<String> replaced, List<String> updated,
        List<String> unchanged, List<String> restartNeeded, List<String> failed) {

    public ReloadResult {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        replaced = List.copyOf(replaced);
        updated = List.copyOf(updated);
        unchanged = List.copyOf(unchanged);
        restartNeeded = List.copyOf(restartNeeded);
        failed = List.copyOf(failed);
    }

    /** Whether anything running changed. */
    public boolean changedAnything() {
        return !added.isEmpty() || !removed.isEmpty() || !replaced.isEmpty() || !updated.isEmpty();
    }

    /** One line for the log. */
    public String summary() {
        return "added " + added + ", removed " + removed + ", replaced " + replaced + ", updated " + updated
                + ", unchanged " + unchanged.size() + (restartNeeded.isEmpty() ? "" : ", restart needed for "
                + restartNeeded) + (failed.isEmpty() ? "" : ", FAILED " + failed);
    }
}
