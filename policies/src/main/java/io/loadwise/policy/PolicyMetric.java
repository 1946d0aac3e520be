package io.loadwise.policy;

/**
 * The agent metrics that built-in policies read, with the seed's names (seed 001 tables 3-5).
 * Percentages are 0-100 as in the seed; {@link #AMX_SESSIONS_ACT} is a count.
 */
public enum PolicyMetric {
    OS_CPU_USED("OS_CPU_USED%"),
    OS_MEM_USED("OS_MEM_USED%"),
    OS_CPU_IOWAIT("OS_CPU_IOWAIT%"),
    JVM_HEAP_USED("JVM_HEAP_USED%"),
    AMX_CONNS_Q_USED("AMX_CONNS_Q_USED%"),
    AMX_CONNS_Q_THRBSY("AMX_CONNS_Q_THRBSY%"),
    AMX_JDBC_ACTC("AMX_JDBC_ACTC%"),
    AMX_SESSIONS_ACT("AMX_SESSIONS_ACT");

    private static final PolicyMetric[] VALUES = values();

    private final String seedName;

    PolicyMetric(String seedName) {
        this.seedName = seedName;
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
