package io.loadwise.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/** One paragraph about the machine a benchmark ran on, for the results. */
final class Environment {

    private Environment() {
    }

    static String describe() {
        String load = "unknown";
        String cpu = "unknown CPU";
        try {
            load = Files.readString(Path.of("/proc/loadavg")).trim().split(" ", 4)[0];
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse(cpu);
        } catch (IOException | RuntimeException e) {
            // not Linux: leave unknown
        }
        return "Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs (" + cpu + "), Java "
                + System.getProperty("java.version") + ", " + System.getProperty("os.name") + "; started "
                + Instant.now() + " with load average " + load + ". The nodes, the database, the dispatcher and"
                + " JMeter all share this machine, and other jobs may run on it too: absolute figures are"
                + " not comparable with the seed's testbed, and a difference between two cells may come from"
                + " the machine's load as much as from the policy.";
    }
}
