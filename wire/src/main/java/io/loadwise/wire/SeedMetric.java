package io.loadwise.wire;

import java.util.HashMap;
import java.util.Map;

/**
 * Every metric of seed 001 tables 3 (OS), 4 (application server) and 5 (JVM), with the seed's names,
 * which are also the names on the wire. Percentages are 0-100, sizes in MB, times in ms.
 * Constant names replace the seed's {@code %} suffix with {@code _PCT}.
 */
public enum SeedMetric {
    OS_LOAD_MAX("OS_LOAD_MAX", MetricGroup.OS, "count", "OS Maximum Load (#CPUs)"),
    OS_LOAD_AVE1("OS_LOAD_AVE1", MetricGroup.OS, "load", "OS 1-Min Load Average"),
    OS_LOAD_AVE5("OS_LOAD_AVE5", MetricGroup.OS, "load", "OS 5-Mins Load Average"),
    OS_LOAD_AVE15("OS_LOAD_AVE15", MetricGroup.OS, "load", "OS 15-Mins Load Average"),
    OS_CPU_AVAIL_PCT("OS_CPU_AVAIL%", MetricGroup.OS, "%", "OS Available CPU (%)"),
    OS_CPU_IDLE_PCT("OS_CPU_IDLE%", MetricGroup.OS, "%", "OS CPU Idle (%)"),
    OS_CPU_IOWAIT_PCT("OS_CPU_IOWAIT%", MetricGroup.OS, "%", "OS CPU IOWait (%)"),
    OS_CPU_SYSTEM_PCT("OS_CPU_SYSTEM%", MetricGroup.OS, "%", "OS Kernel-processes CPU Utilization (%)"),
    OS_CPU_USED_PCT("OS_CPU_USED%", MetricGroup.OS, "%", "OS CPU Utilization (%)"),
    OS_CPU_USER_PCT("OS_CPU_USER%", MetricGroup.OS, "%", "OS User-processes CPU Utilization (%)"),
    OS_DISK_QUEUE("OS_DISK_QUEUE", MetricGroup.OS, "count", "OS Disk-subsystem Queue Size"),
    OS_DISK_READ_BYTES("OS_DISK_READ_BYTES", MetricGroup.OS, "MB", "OS Disk-subsystem Active Reads (MB)"),
    OS_DISK_READS("OS_DISK_READS", MetricGroup.OS, "count", "OS Disk-subsystem Active Reads"),
    OS_DISK_WRITE_BYTES("OS_DISK_WRITE_BYTES", MetricGroup.OS, "MB", "OS Disk-subsystem Active Writes (MB)"),
    OS_DISK_WRITES("OS_DISK_WRITES", MetricGroup.OS, "count", "OS Disk-subsystem Active Writes"),
    OS_MEM_FREE("OS_MEM_FREE", MetricGroup.OS, "MB", "OS Free Physical System Memory (MB)"),
    OS_MEM_FREE_PCT("OS_MEM_FREE%", MetricGroup.OS, "%", "OS Free Physical System Memory (%)"),
    OS_MEM_TOTAL("OS_MEM_TOTAL", MetricGroup.OS, "MB", "OS Total Physical System Memory (MB)"),
    OS_MEM_USED("OS_MEM_USED", MetricGroup.OS, "MB", "OS Used Physical System Memory (MB)"),
    OS_MEM_USED_PCT("OS_MEM_USED%", MetricGroup.OS, "%", "OS Used Physical System Memory (%)"),
    OS_SWAP_FREE("OS_SWAP_FREE", MetricGroup.OS, "MB", "OS Free Virtual Memory (MB)"),
    OS_SWAP_FREE_PCT("OS_SWAP_FREE%", MetricGroup.OS, "%", "OS Free Virtual Memory (%)"),
    OS_SWAP_PAGEINS("OS_SWAP_PAGEINS", MetricGroup.OS, "MB", "OS Virtual Memory Page-ins (MB)"),
    OS_SWAP_PAGEOUTS("OS_SWAP_PAGEOUTS", MetricGroup.OS, "MB", "OS Virtual Memory Page-outs (MB)"),
    OS_SWAP_TOTAL("OS_SWAP_TOTAL", MetricGroup.OS, "MB", "OS Total Virtual Memory (MB)"),
    OS_SWAP_USED("OS_SWAP_USED", MetricGroup.OS, "MB", "OS Used Virtual Memory (MB)"),
    OS_SWAP_USED_PCT("OS_SWAP_USED%", MetricGroup.OS, "%", "OS Used Virtual Memory (%)"),
    NET_TCP_ACT_OPENS("NET_TCP_ACT_OPENS", MetricGroup.OS, "count", "OS Network-subsystem TCP ACTIVE-OPENS"),
    NET_TCP_ATT_FAILS("NET_TCP_ATT_FAILS", MetricGroup.OS, "count", "OS Network-subsystem TCP ATTEMP-FAILS"),
    NET_TCP_CUR_ESTAB("NET_TCP_CUR_ESTAB", MetricGroup.OS, "count", "OS Network-subsystem TCP CURR-ESTAB"),
    NET_TCP_ESTAB_RESETS("NET_TCP_ESTAB_RESETS", MetricGroup.OS, "count", "OS Network-subsystem TCP ESTAB RESETS"),
    NET_TCP_IN_ERRS("NET_TCP_IN_ERRS", MetricGroup.OS, "count", "OS Network-subsystem TCP IN-ERRS"),
    NET_TCP_IN_SEGS("NET_TCP_IN_SEGS", MetricGroup.OS, "count", "OS Network-subsystem TCP IN-SEGS"),
    NET_TCP_OUT_RSTS("NET_TCP_OUT_RSTS", MetricGroup.OS, "count", "OS Network-subsystem TCP OUT-RSTS"),
    NET_TCP_OUT_SEGS("NET_TCP_OUT_SEGS", MetricGroup.OS, "count", "OS Network-subsystem TCP OUT-SEGS"),
    NET_TCP_PASV_OPENS("NET_TCP_PASV_OPENS", MetricGroup.OS, "count", "OS Network-subsystem TCP PASSIVE-OPENS"),
    NET_TCP_RETRANS_SEGS("NET_TCP_RETRANS_SEGS", MetricGroup.OS, "count", "OS Network-subsystem TCP RETRANS-SEGS"),
    AMX_CONNS_OPEN("AMX_CONNS_OPEN", MetricGroup.APP_SERVER, "count", "AppServer Open Connections"),
    AMX_CONNS_MAX("AMX_CONNS_MAX", MetricGroup.APP_SERVER, "count", "AppServer Maximum Connections"),
    AMX_CONNS_USED_PCT("AMX_CONNS_USED%", MetricGroup.APP_SERVER, "%", "AppServer Connections Used (%)"),
    AMX_CONNS_DENIED("AMX_CONNS_DENIED", MetricGroup.APP_SERVER, "count", "AppServer Denied Connections"),
    AMX_CONNS_KEEPALVMAX("AMX_CONNS_KEEPALVMAX", MetricGroup.APP_SERVER, "count", "AppServer Max Requests in each Keep-alive Connection"),
    AMX_CONNS_QD("AMX_CONNS_QD", MetricGroup.APP_SERVER, "count", "AppServer Queued Connections"),
    AMX_CONNS_QD_1MAVE("AMX_CONNS_QD_1MAVE", MetricGroup.APP_SERVER, "count", "AppServer 1-Min Queued Connections"),
    AMX_CONNS_QD_5MAVE("AMX_CONNS_QD_5MAVE", MetricGroup.APP_SERVER, "count", "AppServer 5-Mins Queued Connections"),
    AMX_CONNS_QD_15MAVE("AMX_CONNS_QD_15MAVE", MetricGroup.APP_SERVER, "count", "AppServer 15-Mins Queued Connections"),
    AMX_CONNS_Q_MAXSIZE("AMX_CONNS_Q_MAXSIZE", MetricGroup.APP_SERVER, "count", "AppServer Maximum Connection Queue Size"),
    AMX_CONNS_Q_USED_PCT("AMX_CONNS_Q_USED%", MetricGroup.APP_SERVER, "%", "AppServer Connection Queue Used %"),
    AMX_CONNS_Q_THRDSMAX("AMX_CONNS_Q_THRDSMAX", MetricGroup.APP_SERVER, "count", "AppServer Connection Queue Maximum Threads"),
    AMX_CONNS_Q_THRDSMIN("AMX_CONNS_Q_THRDSMIN", MetricGroup.APP_SERVER, "count", "AppServer Connection Queue Minimum Threads"),
    AMX_CONNS_Q_THRBSY("AMX_CONNS_Q_THRBSY", MetricGroup.APP_SERVER, "count", "AppServer Connection Queue Busy Threads"),
    AMX_CONNS_Q_THRBSY_PCT("AMX_CONNS_Q_THRBSY%", MetricGroup.APP_SERVER, "%", "AppServer Connection Queue Thread Utilization (%)"),
    AMX_RQST_ERRS("AMX_RQST_ERRS", MetricGroup.APP_SERVER, "count", "AppServer HTTP Request Errors"),
    AMX_RQST_MAXTIME("AMX_RQST_MAXTIME", MetricGroup.APP_SERVER, "ms", "AppServer HTTP Request Maximum Processing Time (ms)"),
    AMX_RQST_AVETIME("AMX_RQST_AVETIME", MetricGroup.APP_SERVER, "ms", "AppServer HTTP Request Average Processing Time (ms)"),
    AMX_RQST_TOTAL("AMX_RQST_TOTAL", MetricGroup.APP_SERVER, "count", "AppServer HTTP Requests"),
    AMX_SESSIONS_ACT("AMX_SESSIONS_ACT", MetricGroup.APP_SERVER, "count", "AppServer HTTP Active Sessions"),
    AMX_JDBC_MAXC("AMX_JDBC_MAXC", MetricGroup.APP_SERVER, "count", "AppServer Max JDBC Connections"),
    AMX_JDBC_ACTC("AMX_JDBC_ACTC", MetricGroup.APP_SERVER, "count", "AppServer Active JDBC Connections"),
    AMX_JDBC_ACTC_PCT("AMX_JDBC_ACTC%", MetricGroup.APP_SERVER, "%", "AppServer Used JDBC Connections (%)"),
    /**
     * Threads waiting for a JDBC connection now, summed over the server's pools: the sign that a pool, not a
     * worker, is the node's bottleneck. Not in seed 001 (added for issue 31); absent, never 0, where the
     * server's pool does not report it.
     */
    AMX_JDBC_WAIT("AMX_JDBC_WAIT", MetricGroup.APP_SERVER, "count", "AppServer Threads Waiting for a JDBC Connection"),
    JVM_CLASS_COUNT("JVM_CLASS_COUNT", MetricGroup.JVM, "count", "JVM Loaded Classes"),
    JVM_COMPILE_TIME("JVM_COMPILE_TIME", MetricGroup.JVM, "ms", "JVM Total Compile Time (ms)"),
    JVM_GC_TIME("JVM_GC_TIME", MetricGroup.JVM, "ms", "JVM Total GC Time (ms)"),
    JVM_HEAP_AVAIL("JVM_HEAP_AVAIL", MetricGroup.JVM, "MB", "JVM Available Heap Space (MB)"),
    JVM_HEAP_AVAIL_PCT("JVM_HEAP_AVAIL%", MetricGroup.JVM, "%", "JVM Available Heap Space (%)"),
    JVM_HEAP_TOTAL("JVM_HEAP_TOTAL", MetricGroup.JVM, "MB", "JVM Total Heap Space (MB)"),
    JVM_HEAP_USED("JVM_HEAP_USED", MetricGroup.JVM, "MB", "JVM Used Heap Space (MB)"),
    JVM_HEAP_USED_PCT("JVM_HEAP_USED%", MetricGroup.JVM, "%", "JVM Used Heap Space (%)"),
    JVM_THREADS("JVM_THREADS", MetricGroup.JVM, "count", "JVM Threads"),
    JVM_THREADS_DAEMONS("JVM_THREADS_DAEMONS", MetricGroup.JVM, "count", "JVM Daemon Threads");

    private static final Map<String, SeedMetric> BY_NAME = new HashMap<>();

    static {
        for (SeedMetric m : values()) {
            BY_NAME.put(m.seedName, m);
        }
    }

    private final String seedName;
    private final MetricGroup group;
    private final String unit;
    private final String description;

    SeedMetric(String seedName, MetricGroup group, String unit, String description) {
        this.seedName = seedName;
        this.group = group;
        this.unit = unit;
        this.description = description;
    }

    /** The seed's name, e.g. {@code "OS_CPU_USED%"}. */
    public String seedName() {
        return seedName;
    }

    public MetricGroup group() {
        return group;
    }

    /** {@code %} (0-100), {@code MB}, {@code ms}, {@code count} or {@code load} (run-queue average). */
    public String unit() {
        return unit;
    }

    public String description() {
        return description;
    }

    /** The metric with this seed name, or {@code null}. */
    public static SeedMetric bySeedName(String name) {
        return BY_NAME.get(name);
    }
}
