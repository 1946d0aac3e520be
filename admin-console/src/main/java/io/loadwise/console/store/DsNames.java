package io.loadwise.console.store;

import io.loadwise.wire.SeedMetric;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Maps seed metric names to rrd4j data source names, which are limited to 20 characters and must be
 * usable in RPN expressions. The mapping is part of the file format: a store written today must be
 * readable by the next version, so entries are never changed, only added.
 *
 * <p>Names of letters, digits and {@code _} of at most 20 characters map to themselves; the seed's
 * percentages ({@code %} suffix) map to {@code _P} through the table below. Any other name must be added
 * to the table (the unit test fails until it is). The table is reproduced in {@code docs/metrics.md}.
 */
public final class DsNames {

    /** rrd4j's limit on data source names. */
    public static final int MAX_LENGTH = 20;

    private static final Pattern PLAIN = Pattern.compile("[A-Z][A-Z0-9_]{0,19}");

    private static final Map<String, String> TABLE = Map.ofEntries(
            Map.entry(SeedMetric.OS_CPU_AVAIL_PCT.seedName(), "OS_CPU_AVAIL_P"),
            Map.entry(SeedMetric.OS_CPU_IDLE_PCT.seedName(), "OS_CPU_IDLE_P"),
            Map.entry(SeedMetric.OS_CPU_IOWAIT_PCT.seedName(), "OS_CPU_IOWAIT_P"),
            Map.entry(SeedMetric.OS_CPU_SYSTEM_PCT.seedName(), "OS_CPU_SYSTEM_P"),
            Map.entry(SeedMetric.OS_CPU_USED_PCT.seedName(), "OS_CPU_USED_P"),
            Map.entry(SeedMetric.OS_CPU_USER_PCT.seedName(), "OS_CPU_USER_P"),
            Map.entry(SeedMetric.OS_MEM_FREE_PCT.seedName(), "OS_MEM_FREE_P"),
            Map.entry(SeedMetric.OS_MEM_USED_PCT.seedName(), "OS_MEM_USED_P"),
            Map.entry(SeedMetric.OS_SWAP_FREE_PCT.seedName(), "OS_SWAP_FREE_P"),
            Map.entry(SeedMetric.OS_SWAP_USED_PCT.seedName(), "OS_SWAP_USED_P"),
            Map.entry(SeedMetric.AMX_CONNS_USED_PCT.seedName(), "AMX_CONNS_USED_P"),
            Map.entry(SeedMetric.AMX_CONNS_Q_USED_PCT.seedName(), "AMX_CONNS_Q_USED_P"),
            Map.entry(SeedMetric.AMX_CONNS_Q_THRBSY_PCT.seedName(), "AMX_CONNS_Q_THRBSY_P"),
            Map.entry(SeedMetric.AMX_JDBC_ACTC_PCT.seedName(), "AMX_JDBC_ACTC_P"),
            Map.entry(SeedMetric.JVM_HEAP_AVAIL_PCT.seedName(), "JVM_HEAP_AVAIL_P"),
            Map.entry(SeedMetric.JVM_HEAP_USED_PCT.seedName(), "JVM_HEAP_USED_P"),
            Map.entry("NODE_AVAILABILITY%", "NODE_AVAILABILITY_P"),
            Map.entry("TAP_NODE_LOAD%", "TAP_NODE_LOAD_P"));

    private DsNames() {
    }

    /**
     * @throws IllegalArgumentException for a name that is neither plain nor in the table
     */
    public static String of(String metric) {
        String mapped = TABLE.get(metric);
        if (mapped != null) {
            return mapped;
        }
        if (PLAIN.matcher(metric).matches()) {
            return metric;
        }
        throw new IllegalArgumentException("metric '" + metric + "' has no rrd4j data source name: names of more than "
                + MAX_LENGTH + " characters or with characters other than A-Z, 0-9 and _ need an entry in DsNames");
    }

    /** The explicit entries, for the documentation test. */
    static Map<String, String> table() {
        return TABLE;
    }
}
