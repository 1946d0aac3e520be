package io.loadwise.bench.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * One sample of a process from /proc: its resident set ({@code VmRSS} of /proc/PID/status, kB), open file
 * descriptors (entries of /proc/PID/fd) and threads ({@code Threads} of /proc/PID/status), at {@code seconds}
 * since the soak's load began.
 */
record ProcSample(double seconds, long rssKb, long fds, long threads) {

    static ProcSample read(Path proc, long pid, double seconds) throws IOException {
        Path dir = proc.resolve(Long.toString(pid));
        String status = Files.readString(dir.resolve("status"), StandardCharsets.UTF_8);
        long fds;
        try (Stream<Path> entries = Files.list(dir.resolve("fd"))) {
            fds = entries.count();
        }
        return new ProcSample(seconds, field(status, "VmRSS"), fds, field(status, "Threads"));
    }

    /** The number of a {@code Name:\t  123 kB} line of /proc/PID/status. */
    static long field(String status, String name) throws IOException {
        for (String line : status.split("\n")) {
            if (line.startsWith(name + ":")) {
                String value = line.substring(name.length() + 1).strip();
                int space = value.indexOf(' ');
                return Long.parseLong(space < 0 ? value : value.substring(0, space));
            }
        }
        throw new IOException("no " + name + " in the process status");
    }
}
