package io.loadwise.console.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;

/** {@code /jvm}: the dispatcher JVM's memory and its live threads with their stacks (figures 36-37). */
final class JvmPage {

    private static final int STACK_DEPTH = 12;

    void get(HttpServletRequest request, HttpServletResponse response) throws IOException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
        StringBuilder b = new StringBuilder("<h1>Dispatcher JVM</h1><dl class=\"facts\">")
                .append("<dt>Java</dt><dd>").append(Html.text(runtime.getVmName() + " " + runtime.getVmVersion()))
                .append("</dd><dt>Up for</dt><dd>").append(Html.text(uptime(runtime.getUptime())))
                .append("</dd><dt>Processors</dt><dd>").append(Runtime.getRuntime().availableProcessors())
                .append("</dd></dl><h2>Memory</h2><table id=\"memory\"><thead><tr><th>Area</th><th>Used</th>")
                .append("<th>Committed</th><th>Max</th></tr></thead><tbody>")
                .append(row("Heap", memory.getHeapMemoryUsage()))
                .append(row("Non-heap", memory.getNonHeapMemoryUsage()));
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage usage = pool.getUsage();
            if (usage != null) {
                b.append(row("  " + pool.getName(), usage));
            }
        }
        b.append("</tbody></table>");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ThreadInfo[] infos = threads.dumpAllThreads(false, false, STACK_DEPTH);
        Arrays.sort(infos, Comparator.comparing(ThreadInfo::getThreadName));
        b.append("<h2>Threads (").append(infos.length).append(" live, peak ").append(threads.getPeakThreadCount())
                .append(")</h2><table id=\"threads\"><thead><tr><th>Name</th><th>Id</th><th>State</th><th>Daemon</th>")
                .append("<th>Stack (top ").append(STACK_DEPTH).append(")</th></tr></thead><tbody>");
        for (ThreadInfo t : infos) {
            b.append("<tr><td>").append(Html.text(t.getThreadName())).append("</td><td>").append(t.getThreadId())
                    .append("</td><td>").append(t.getThreadState()).append("</td><td>").append(t.isDaemon() ? "yes" : "no")
                    .append("</td><td><details><summary>").append(t.getStackTrace().length == 0 ? "(no frames)"
                            : Html.text(t.getStackTrace()[0])).append("</summary><pre>");
            for (StackTraceElement frame : t.getStackTrace()) {
                b.append(Html.text(frame)).append('\n');
            }
            b.append("</pre></details></td></tr>");
        }
        b.append("</tbody></table>");
        Layout.ok(request, response, "Dispatcher JVM", "/jvm", b.toString());
    }

    private static String row(String name, MemoryUsage usage) {
        return "<tr><td>" + Html.text(name) + "</td><td>" + mb(usage.getUsed()) + "</td><td>" + mb(usage.getCommitted())
                + "</td><td>" + (usage.getMax() < 0 ? "unbounded" : mb(usage.getMax())) + "</td></tr>";
    }

    private static String mb(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1_048_576.0);
    }

    private static String uptime(long millis) {
        Duration d = Duration.ofMillis(millis);
        return d.toDaysPart() + " d " + d.toHoursPart() + " h " + d.toMinutesPart() + " min " + d.toSecondsPart() + " s";
    }
}
