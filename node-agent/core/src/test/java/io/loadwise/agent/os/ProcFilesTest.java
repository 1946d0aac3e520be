package io.loadwise.agent.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.metric.MetricSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The /proc parsers against captured file contents, so the arithmetic is checked exactly. */
class ProcFilesTest {

    @TempDir
    Path dir;

    @Test
    void cpuSplitIsTheDifferenceBetweenTwoReadings() throws Exception {
        Path stat = dir.resolve("stat");
        ProcStatCpuSource source = new ProcStatCpuSource(stat);
        //                 user nice system idle iowait irq softirq steal
        Files.writeString(stat, "cpu  100 0 50 800 10 0 0 0 0 0\ncpu0 1 2 3 4 5 6 7 8\nintr 1\n");
        MetricSink first = new MetricSink();
        source.collect(first);
        assertTrue(first.values().isEmpty(), "first reading has no interval yet");
        Files.writeString(stat, "cpu  130 10 60 930 20 5 5 0 0 0\n");
        MetricSink second = new MetricSink();
        source.collect(second);
        // deltas: user 30+10, system 10+5+5, idle 130, iowait 10, total 200
        Map<String, Double> v = second.values();
        assertEquals(20.0, v.get("OS_CPU_USER%"), 1e-9);
        assertEquals(10.0, v.get("OS_CPU_SYSTEM%"), 1e-9);
        assertEquals(5.0, v.get("OS_CPU_IOWAIT%"), 1e-9);
        assertEquals(65.0, v.get("OS_CPU_IDLE%"), 1e-9);
        assertEquals(30.0, v.get("OS_CPU_USED%"), 1e-9);
        assertEquals(70.0, v.get("OS_CPU_AVAIL%"), 1e-9);
    }

    @Test
    void meminfoUsesMemAvailableAndHandlesNoSwap() throws Exception {
        Path meminfo = dir.resolve("meminfo");
        Files.writeString(meminfo, "MemTotal:        4194304 kB\nMemFree:          524288 kB\n"
                + "MemAvailable:    3145728 kB\nSwapTotal:             0 kB\nSwapFree:              0 kB\n");
        MetricSink sink = new MetricSink();
        new ProcMeminfoSource(meminfo).collect(sink);
        Map<String, Double> v = sink.values();
        assertEquals(4096.0, v.get("OS_MEM_TOTAL"), 1e-9);
        assertEquals(3072.0, v.get("OS_MEM_FREE"), 1e-9);
        assertEquals(25.0, v.get("OS_MEM_USED%"), 1e-9);
        assertEquals(0.0, v.get("OS_SWAP_TOTAL"), 1e-9);
        assertFalse(v.containsKey("OS_SWAP_USED%"), "0 of 0 swap is no percentage");
    }

    @Test
    void diskstatsCountsWholeDisksOnlyOnce() throws Exception {
        Path diskstats = dir.resolve("diskstats");
        Files.writeString(diskstats,
                "   7       0 loop0 999 0 999 0 999 0 999 0 9 0 0\n"
                + "   8       0 sda 100 0 2048 0 50 0 4096 0 3 0 0\n"
                + "   8       1 sda1 90 0 2000 0 40 0 4000 0 2 0 0\n"
                + " 259       0 nvme0n1 10 0 2048 0 5 0 0 0 1 0 0\n"
                + " 259       1 nvme0n1p1 10 0 2048 0 5 0 0 0 1 0 0\n"
                + " 253       0 dm-0 500 0 500 0 500 0 500 0 5 0 0\n");
        MetricSink sink = new MetricSink();
        new ProcDiskstatsSource(diskstats).collect(sink);
        Map<String, Double> v = sink.values();
        assertEquals(110.0, v.get("OS_DISK_READS"), 1e-9);
        assertEquals(55.0, v.get("OS_DISK_WRITES"), 1e-9);
        assertEquals(2.0, v.get("OS_DISK_READ_BYTES"), 1e-9); // 4096 sectors * 512 B
        assertEquals(2.0, v.get("OS_DISK_WRITE_BYTES"), 1e-9);
        assertEquals(4.0, v.get("OS_DISK_QUEUE"), 1e-9);
    }

    @Test
    void snmpTcpAndVmstatCounters() throws Exception {
        Path snmp = dir.resolve("snmp");
        Files.writeString(snmp, "Ip: Forwarding\nIp: 1\n"
                + "Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets "
                + "CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors\n"
                + "Tcp: 1 200 120000 -1 70 2 3 4 5 6665 5865 7 8 118 0\n");
        MetricSink sink = new MetricSink();
        new ProcSnmpTcpSource(snmp).collect(sink);
        Map<String, Double> v = sink.values();
        assertEquals(70.0, v.get("NET_TCP_ACT_OPENS"));
        assertEquals(2.0, v.get("NET_TCP_PASV_OPENS"));
        assertEquals(3.0, v.get("NET_TCP_ATT_FAILS"));
        assertEquals(4.0, v.get("NET_TCP_ESTAB_RESETS"));
        assertEquals(5.0, v.get("NET_TCP_CUR_ESTAB"));
        assertEquals(6665.0, v.get("NET_TCP_IN_SEGS"));
        assertEquals(5865.0, v.get("NET_TCP_OUT_SEGS"));
        assertEquals(7.0, v.get("NET_TCP_RETRANS_SEGS"));
        assertEquals(8.0, v.get("NET_TCP_IN_ERRS"));
        assertEquals(118.0, v.get("NET_TCP_OUT_RSTS"));

        Path vmstat = dir.resolve("vmstat");
        Files.writeString(vmstat, "nr_free_pages 1\npswpin 256\npswpout 512\n");
        MetricSink paging = new MetricSink();
        new ProcVmstatSource(vmstat).collect(paging);
        assertEquals(1.0, paging.values().get("OS_SWAP_PAGEINS"), 1e-9);
        assertEquals(2.0, paging.values().get("OS_SWAP_PAGEOUTS"), 1e-9);
    }
}
