package io.loadwise.dispatcher.route;

import java.util.Map;

/**
 * An immutable open-addressing table from lower-case ASCII keys to values, looked up by a region of a longer
 * string ignoring case, so the route table finds a host or a first path segment without copying it.
 */
final class AsciiKeyTable<V> {

    private final String[] keys;
    private final Object[] values;
    private final int mask;

    AsciiKeyTable(Map<String, V> entries) {
        int capacity = Integer.highestOneBit(Math.max(2, entries.size() * 2 + 1) * 2 - 1);
        keys = new String[capacity];
        values = new Object[capacity];
        mask = capacity - 1;
        for (Map.Entry<String, V> e : entries.entrySet()) {
            String key = e.getKey();
            int slot = spread(key.hashCode()) & mask;
            while (keys[slot] != null) {
                slot = (slot + 1) & mask;
            }
            keys[slot] = key;
            values[slot] = e.getValue();
        }
    }

    @SuppressWarnings("unchecked")
    V get(CharSequence s, int from, int to) {
        int slot = spread(HostName.hash(s, from, to)) & mask;
        String key;
        while ((key = keys[slot]) != null) {
            if (HostName.equalsIgnoreCase(key, s, from, to)) {
                return (V) values[slot];
            }
            slot = (slot + 1) & mask;
        }
        return null;
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}
