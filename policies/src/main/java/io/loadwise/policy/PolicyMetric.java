package io.loadwise.policy;

import io.loadwise.wire.SeedMetric;

/**
 * The agent metrics that built-in policies read (seed 001 tables 3-5), named by the wire module's
 * {@link SeedMetric}, the one place the agent, the dispatcher and the policies take metric names from.
 * Percentages are 0-100 as in the seed; {@link #AMX_SESSIONS_ACT} is a count.
 */
public enum PolicyMetric {
    OS_CPU_USED(SeedMetric.OS_CPU_USED_PCT),
    OS_MEM_USED(SeedMetric.OS_MEM_USED_PCT),
    OS_CPU_IOWAIT(SeedMetric.OS_CPU_IOWAIT_PCT),
    JVM_HEAP_USED(SeedMetric.JVM_HEAP_USED_PCT),
    AMX_CONNS_Q_USED(SeedMetric.AMX_CONNS_Q_USED_PCT),
    AMX_CONNS_Q_THRBSY(SeedMetric.AMX_CONNS_Q_THRBSY_PCT),
    AMX_JDBC_ACTC(SeedMetric.AMX_JDBC_ACTC_PCT),
    AMX_SESSIONS_ACT(SeedMetric.AMX_SESSIONS_ACT);

    private static final PolicyMetric[] VALUES = values();

    private final String seedName;

    PolicyMetric(SeedMetric metric) {
        this.seedName = metric.seedName();
    }

    /** The metric's name in the seed and on the wire, e.g. {@code "JVM_HEAP_USED%"}. */
    public String seedName() {
        return seedName;
    }

    /** The metric with this seed name, or {@code null}. */
    public static PolicyMetric bySeedName(String name) {
        for (PolicyMetric m : VALUES) {
            if (m.seedName.equals(name)) {
                return m;
            }
        }
        return null;
    }
}
