package io.loadwise.agent.os;

import io.loadwise.agent.metric.MetricSource;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hyperic.sigar.Sigar;

/**
 * Chooses where OS metrics come from: SIGAR when its native library loads, otherwise pure Java
 * ({@code /proc} on Linux, the OperatingSystemMXBean elsewhere). {@link #fast()} holds the sources of the
 * policy metrics (CPU, memory), {@link #slow()} the rest.
 */
public final class OsSources {

    /** Which source to use: {@code auto} (SIGAR, else Java), {@code sigar} (same, but warn on fallback) or {@code java}. */
    public enum Mode { AUTO, SIGAR, JAVA }

    private final String name;
    private final String fallbackReason;
    private final List<MetricSource> fast;
    private final List<MetricSource> slow;
    private final Sigar sigar;

    private OsSources(String name, String fallbackReason, List<MetricSource> fast, List<MetricSource> slow, Sigar sigar) {
        this.name = name;
        this.fallbackReason = fallbackReason;
        this.fast = List.copyOf(fast);
        this.slow = List.copyOf(slow);
        this.sigar = sigar;
    }

    /** Selects the sources for this machine; {@code procRoot} is normally {@code /proc}. */
    public static OsSources select(Mode mode, Path procRoot) {
        String reason = "java source requested in the configuration";
        if (mode != Mode.JAVA) {
            try {
                Sigar sigar = SigarLoader.load();
                return new OsSources("sigar", null,
                        List.of(new SigarCpuSource(sigar), new SigarMemorySource(sigar)),
                        List.of(new SigarLoadSource(sigar), new SigarDiskSource(sigar), new SigarTcpSource(sigar)),
                        sigar);
            } catch (SigarUnavailableException e) {
                reason = e.getMessage();
            }
        }
        return java(procRoot, reason);
    }

    private static OsSources java(Path proc, String reason) {
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean();
        List<MetricSource> fast = new ArrayList<>();
        List<MetricSource> slow = new ArrayList<>();
        boolean linux = Files.isReadable(proc.resolve("stat"));
        if (linux) {
            fast.add(new ProcStatCpuSource(proc.resolve("stat")));
            fast.add(new ProcMeminfoSource(proc.resolve("meminfo")));
            slow.add(new LoadAverageSource(os, proc.resolve("loadavg")));
            slow.add(new ProcVmstatSource(proc.resolve("vmstat")));
            slow.add(new ProcDiskstatsSource(proc.resolve("diskstats")));
            slow.add(new ProcSnmpTcpSource(proc.resolve("net/snmp")));
        } else {
            fast.add(new JavaCpuSource(os));
            fast.add(new JavaMemorySource(os));
            slow.add(new LoadAverageSource(os, null));
        }
        return new OsSources(linux ? "java+proc" : "java", reason, fast, slow, null);
    }

    /** {@code sigar}, {@code java+proc} or {@code java}; reported as the OS group's source. */
    public String name() {
        return name;
    }

    /** Why SIGAR is not used, or {@code null} when it is. */
    public String fallbackReason() {
        return fallbackReason;
    }

    public List<MetricSource> fast() {
        return fast;
    }

    public List<MetricSource> slow() {
        return slow;
    }

    /** Releases SIGAR's native handle, if any. */
    public void close() {
        if (sigar != null) {
            sigar.close();
        }
    }
}
