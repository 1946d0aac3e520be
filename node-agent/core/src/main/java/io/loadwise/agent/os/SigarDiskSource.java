package io.loadwise.agent.os;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.util.HashSet;
import java.util.Set;
import org.hyperic.sigar.FileSystem;
import org.hyperic.sigar.FileSystemUsage;
import org.hyperic.sigar.SigarException;
import org.hyperic.sigar.SigarProxy;

/**
 * Disk activity through SIGAR, summed over local-disk file systems (each device counted once): reads,
 * writes and MB since boot, and the current queue length.
 */
public final class SigarDiskSource implements MetricSource {

    private final SigarProxy sigar;

    public SigarDiskSource(SigarProxy sigar) {
        this.sigar = sigar;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.OS;
    }

    @Override
    public void collect(MetricSink sink) throws SigarException {
        double reads = 0, writes = 0, readBytes = 0, writeBytes = 0, queue = 0;
        boolean any = false;
        Set<String> devices = new HashSet<>();
        for (FileSystem fs : sigar.getFileSystemList()) {
            if (fs.getType() != FileSystem.TYPE_LOCAL_DISK || !devices.add(fs.getDevName())) {
                continue;
            }
            FileSystemUsage usage = sigar.getFileSystemUsage(fs.getDirName());
            if (usage.getDiskReads() < 0) {
                continue; // SIGAR could not map this file system to a block device
            }
            any = true;
            reads += usage.getDiskReads();
            writes += usage.getDiskWrites();
            readBytes += usage.getDiskReadBytes();
            writeBytes += usage.getDiskWriteBytes();
            queue += Math.max(0, usage.getDiskQueue());
        }
        if (any) {
            sink.put(SeedMetric.OS_DISK_READS, reads);
            sink.put(SeedMetric.OS_DISK_WRITES, writes);
            sink.putMegabytes(SeedMetric.OS_DISK_READ_BYTES, readBytes);
            sink.putMegabytes(SeedMetric.OS_DISK_WRITE_BYTES, writeBytes);
            sink.put(SeedMetric.OS_DISK_QUEUE, queue);
        }
    }
}
