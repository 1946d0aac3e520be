package io.loadwise.console.store;

import java.nio.file.Path;

/**
 * Which store: a cluster's ({@code node == null}) or one of its nodes'. Files live under the store root as
 * {@code <cluster>/cluster.rrd} and {@code <cluster>/nodes/<node>.rrd}; configuration names are limited to
 * letters, digits, {@code .}, {@code _} and {@code -} starting with a letter or digit, so they are safe
 * file names.
 */
public record StoreKey(String cluster, String node) {

    public static StoreKey cluster(String cluster) {
        return new StoreKey(cluster, null);
    }

    public static StoreKey node(String cluster, String node) {
        return new StoreKey(cluster, node);
    }

    public boolean isNode() {
        return node != null;
    }

    public SeriesCatalog catalog() {
        return isNode() ? SeriesCatalog.NODE : SeriesCatalog.CLUSTER;
    }

    /** The file under {@code root}; {@code null} when a name could escape it (not a configuration name). */
    Path file(Path root) {
        if (!safe(cluster) || (node != null && !safe(node))) {
            return null;
        }
        Path dir = root.resolve(cluster);
        return node == null ? dir.resolve("cluster.rrd") : dir.resolve("nodes").resolve(node + ".rrd");
    }

    private static boolean safe(String name) {
        return name != null && name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    }

    @Override
    public String toString() {
        return node == null ? "cluster " + cluster : "node " + cluster + "/" + node;
    }
}
