package io.loadwise.policy;

import io.loadwise.wire.FilterMetric;
import io.loadwise.wire.GcMetric;
import io.loadwise.wire.OrcaLoadReport;
import io.loadwise.wire.SeedMetric;

/**
 * The agent metrics that built-in policies read (seed 001 tables 3-5, and the three ORCA fields of the
 * agent's filter), named by the wire module's {@link SeedMetric}, {@link FilterMetric} and
 * {@link OrcaLoadReport}, the one place the agent, the dispatcher and the policies take metric names from.
 * Percentages are 0-100 as in the seed; {@link #AMX_SESSIONS_ACT} is a count, the two rates are per second.
 */
public enum PolicyMetric {
    OS_CPU_USED(SeedMetric.OS_CPU_USED_PCT),
    OS_MEM_USED(SeedMetric.OS_MEM_USED_PCT),
    OS_CPU_IOWAIT(SeedMetric.OS_CPU_IOWAIT_PCT),
    JVM_HEAP_USED(SeedMetric.JVM_HEAP_USED_PCT),
    AMX_CONNS_Q_USED(SeedMetric.AMX_CONNS_Q_USED_PCT),
    AMX_CONNS_Q_THRBSY(SeedMetric.AMX_CONNS_Q_THRBSY_PCT),
    AMX_JDBC_ACTC(SeedMetric.AMX_JDBC_ACTC_PCT),
    /** Threads waiting for a JDBC connection, a count; absent where the agent cannot read it. */
    AMX_JDBC_WAIT(SeedMetric.AMX_JDBC_WAIT),
    AMX_SESSIONS_ACT(SeedMetric.AMX_SESSIONS_ACT),
    /** Requests the node completed per second: ORCA {@code rps_fractional}. */
    REQUEST_RATE(FilterMetric.APP_RQST_RATE.metricName()),
    /** Answers >= 500 per second: ORCA {@code eps}. */
    ERROR_RATE(FilterMetric.APP_RQST_ERR_RATE.metricName()),
    /** ORCA {@code application_utilization} as a percentage. */
    APP_UTILIZATION(OrcaLoadReport.APP_UTILIZATION),
    /** Share of the last second the node's JVM spent collecting garbage, 0-100. */
    GC_TIME(GcMetric.JVM_GC_TIME_PCT.metricName()),
    /** The node's old generation right after its last collection, 0-100. */
    OLD_AFTER_GC(GcMetric.JVM_OLD_AFTER_GC_PCT.metricName());

    private static final PolicyMetric[] VALUES = values();

    private final String seedName;

    PolicyMetric(SeedMetric metric) {
        this(metric.seedName());
    }

    PolicyMetric(String name) {
        this.seedName = name;
    }

    /** The metric's name in the seed (or the agent's) and on the wire, e.g. {@code "JVM_HEAP_USED%"}. */
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
