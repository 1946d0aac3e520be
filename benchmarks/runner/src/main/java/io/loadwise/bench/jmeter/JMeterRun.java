package io.loadwise.bench.jmeter;

import io.loadwise.bench.sweep.Durations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Apache JMeter in non-GUI mode as a child JVM ({@code java -jar <home>/bin/ApacheJMeter.jar -n -t plan
 * -l out.jtl -Jname=value ...}), from the JMeter home that {@code benchmarks/jmeter} lays out from Maven
 * Central artifacts. The plan's properties carry the target and the timing.
 */
public final class JMeterRun {

    private final Path home;
    private final String javaExecutable;

    public JMeterRun(Path home) throws IOException {
        this.home = home;
        this.javaExecutable = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        if (!Files.isRegularFile(launcherJar())) {
            throw new IllegalArgumentException("no JMeter at " + home + " (" + launcherJar() + " is missing): build it"
                    + " with 'mvn -B -q -pl benchmarks/jmeter package' or pass --jmeter-home");
        }
        Files.createDirectories(home.resolve("lib").resolve("junit")); // JMeter's launcher scans it; Central has none

    }

    private Path launcherJar() {
        return home.resolve("bin").resolve("ApacheJMeter.jar");
    }

    /** The plan's properties for one run against {@code host:port}{@code path}. */
    public static Map<String, String> planProperties(String host, int port, String path, Durations durations) {
        Map<String, String> properties = new TreeMap<>();
        properties.put("host", host);
        properties.put("port", Integer.toString(port));
        properties.put("path", path);
        properties.put("threads", Integer.toString(durations.threads()));
        properties.put("rampStepSeconds", Integer.toString(durations.rampStepSeconds()));
        properties.put("sustainSeconds", Integer.toString(durations.sustainSeconds()));
        return properties;
    }

    /**
     * Runs {@code plan} and waits for JMeter to finish, at most {@code timeout}; the JTL (CSV) goes to
     * {@code jtl}, JMeter's log and console output next to it.
     *
     * @throws IOException when JMeter fails, times out or writes no JTL
     */
    public void run(Path plan, Path jtl, Map<String, String> properties, Duration timeout)
            throws IOException, InterruptedException {
        Path dir = jtl.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Files.deleteIfExists(jtl);
        List<String> command = new ArrayList<>(List.of(javaExecutable, "-Xms128m", "-Xmx384m", "-XX:+UseSerialGC",
                "-Djava.awt.headless=true", "-Djava.util.prefs.userRoot=" + dir.resolve("prefs"),
                "-jar", launcherJar().toString(), "-n", "-t", plan.toAbsolutePath().toString(),
                "-l", jtl.toAbsolutePath().toString(), "-j", dir.resolve("jmeter.log").toString(),
                // no shutdown listener port (several JMeters may run at once), CSV with a header
                "-Jjmeterengine.nongui.port=0", "-Jjmeter.save.saveservice.output_format=csv",
                "-Jjmeter.save.saveservice.print_field_names=true", "-Jsummariser.interval=10"));
        properties.forEach((name, value) -> command.add("-J" + name + "=" + value));
        Path console = dir.resolve("jmeter-console.log");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(console.toFile()).start();
        process.getOutputStream().close();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IOException("JMeter did not finish within " + timeout.toSeconds() + " s; see " + console);
            }
        } finally {
            if (process.isAlive()) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (process.exitValue() != 0) {
            throw new IOException("JMeter exited with " + process.exitValue() + "; see " + console);
        }
        if (!Files.isRegularFile(jtl)) {
            throw new IOException("JMeter wrote no results file " + jtl + "; see " + console);
        }
    }
}
