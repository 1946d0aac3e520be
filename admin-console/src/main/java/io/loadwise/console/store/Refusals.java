package io.loadwise.console.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clusters and nodes whose store (or some of whose series) the budget or the disk refused. Each is
 * logged once, when first refused, not once a second; it is tried again at most once a minute, and
 * forgotten when it gets its store or is removed. Bounded by the live clusters and nodes.
 */
final class Refusals {

    private static final Logger log = LoggerFactory.getLogger(MetricStores.class);
    static final long RETRY_MILLIS = 60_000;

    /**
     * @param what {@code "store"} or the series that could not be added
     * @param sinceMillis when it was first refused
     */
    record Refusal(StoreKey key, String what, String reason, long sinceMillis, long lastTryMillis) {
    }

    private final Map<StoreKey, Refusal> byKey = new ConcurrentHashMap<>();

    /** Whether {@code key} may be tried now: never refused, or last tried a minute ago or longer. */
    boolean mayTry(StoreKey key, long nowMillis) {
        Refusal r = byKey.get(key);
        return r == null || nowMillis - r.lastTryMillis() >= RETRY_MILLIS;
    }

    void refused(StoreKey key, String what, String reason, long nowMillis) {
        Refusal before = byKey.get(key);
        byKey.put(key, new Refusal(key, what, reason, before == null ? nowMillis : before.sinceMillis(), nowMillis));
        if (before == null) {
            if (what.equals("store")) {
                log.warn("metric store of {} refused: {}; the {} is served as usual but its metrics are not recorded",
                        key, reason, key.isNode() ? "node" : "cluster");
            } else {
                log.warn("metric store of {} cannot add {}: {}; the series it holds are still recorded", key, what,
                        reason);
            }
        }
    }

    void accepted(StoreKey key) {
        if (byKey.remove(key) != null) {
            log.info("metric store of {}: what was refused is recorded now", key);
        }
    }

    /** Forgets the refusals of clusters and nodes that no longer exist. */
    void retainOnly(Set<StoreKey> live) {
        byKey.keySet().retainAll(live);
    }

    List<Refusal> list() {
        List<Refusal> out = new ArrayList<>(byKey.values());
        out.sort(Comparator.comparing(Refusal::key, Comparator.comparing(StoreKey::toString)));
        return out;
    }
}
