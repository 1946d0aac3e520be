package io.loadwise.agent.os;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Disk activity from Linux {@code /proc/diskstats}, summed over whole disks: partitions (a device whose
 * name extends another listed device's name), loop, RAM and device-mapper devices are skipped so that
 * no I/O is counted twice. Sectors are 512 bytes regardless of the device's block size.
 */
public final class ProcDiskstatsSource implements MetricSource {

    private static final double SECTOR_BYTES = 512;

    private final Path diskstats;

    public ProcDiskstatsSource(Path diskstats) {
        this.diskstats = diskstats;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.OS;
    }

    @Override
    public void collect(MetricSink sink) throws IOException {
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(diskstats)) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 14 && !isVirtual(f[2])) {
                rows.add(f);
            }
        }
        double reads = 0, writes = 0, readSectors = 0, writeSectors = 0, inFlight = 0;
        boolean any = false;
        for (String[] f : rows) {
            if (isPartition(f[2], rows)) {
                continue;
            }
            any = true;
            reads += Long.parseLong(f[3]);
            readSectors += Long.parseLong(f[5]);
            writes += Long.parseLong(f[7]);
            writeSectors += Long.parseLong(f[9]);
            inFlight += Long.parseLong(f[11]);
        }
        if (any) {
            sink.put(SeedMetric.OS_DISK_READS, reads);
            sink.put(SeedMetric.OS_DISK_WRITES, writes);
            sink.putMegabytes(SeedMetric.OS_DISK_READ_BYTES, readSectors * SECTOR_BYTES);
            sink.putMegabytes(SeedMetric.OS_DISK_WRITE_BYTES, writeSectors * SECTOR_BYTES);
            sink.put(SeedMetric.OS_DISK_QUEUE, inFlight);
        }
    }

    private static boolean isVirtual(String name) {
        return name.startsWith("loop") || name.startsWith("ram") || name.startsWith("dm-")
                || name.startsWith("zram") || name.startsWith("sr");
    }

    private static boolean isPartition(String name, List<String[]> rows) {
        for (String[] other : rows) {
            if (name.length() > other[2].length() && name.startsWith(other[2])) {
                return true;
            }
        }
        return false;
    }
}
