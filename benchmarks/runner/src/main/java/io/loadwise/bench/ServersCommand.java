package io.loadwise.bench;

import io.loadwise.cli.HelpOption;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code servers}: the app-server integration tests of {@code benchmarks/servers} for every server, one
 * server at a time (each test starts one real server; two at once would not fit a small machine), where
 * {@code mvn verify} runs only WildFly. Results: {@code servers.md} (verdict per server and which metrics
 * the agent reported there) and each run's Maven log, in {@code benchmarks/results/<date>-servers/}.
 */
@Command(name = "servers", customSynopsis = "loadwise bench servers [--only wildfly,liberty]",
        description = {"The agent and dispatcher tests on each real application server (benchmarks/servers),",
            "one after the other, through Maven (mvn on the PATH; the first run downloads each server from",
            "Maven Central: WildFly 260 MB, Open Liberty 350 MB). Writes benchmarks/results/<date>-servers/:",
            "servers.md (verdict per server, and which metrics the agent reported) and <server>.log.",
            "Exit code 1 when a server's tests fail. See docs/app-servers.md."})
final class ServersCommand implements BenchCommand {

    /** Server name to its Maven profile and test classes (failsafe's it.test list), in run order. */
    static final Map<String, String> TESTS = new LinkedHashMap<>();

    static {
        // the agent and readmission contract, then the node registering itself and leaving under load
        TESTS.put("wildfly", "WildFlyNodeIT,WildFlyRegistrationIT");
        TESTS.put("liberty", "LibertyNodeIT,LibertyRegistrationIT");
    }

    @Option(names = "--only", paramLabel = "A,B", description = "only these servers (wildfly, liberty)")
    String only;

    @Option(names = "--root", paramLabel = "DIR", description = "the repository (default: the one this jar was built in)")
    Path root;

    @Mixin
    HelpOption help;

    ServersCommand() {
    }

    @Override
    public int call(PrintStream out) throws IOException, InterruptedException {
        Path root = (this.root != null ? this.root : Locations.defaultRoot()).toAbsolutePath().normalize();
        List<String> servers = chosen(only);
        Path results = resultsFolder(root.resolve("benchmarks/results"), LocalDate.now(ZoneOffset.UTC));
        Map<String, Boolean> passed = new LinkedHashMap<>();
        for (String server : servers) {
            out.println("servers: " + server + " (" + TESTS.get(server) + ")");
            Path log = results.resolve(server + ".log");
            Process mvn = new ProcessBuilder(command(server)).directory(root.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            boolean ok = mvn.waitFor() == 0;
            passed.put(server, ok);
            out.println("servers: " + server + ": " + (ok ? "passed" : "FAILED, see " + log));
        }
        Path workDir = root.resolve("benchmarks/servers/target/server-work");
        Files.writeString(results.resolve("servers.md"), summary(passed, workDir), StandardCharsets.UTF_8);
        long failed = passed.values().stream().filter(ok -> !ok).count();
        out.println("servers: " + (passed.size() - failed) + " passed, " + failed + " failed; " + results.resolve("servers.md"));
        return failed == 0 ? 0 : 1;
    }

    /** {@code <date>-servers}, or {@code <date>-servers-2}, ... when an earlier run of the day has it. */
    static Path resultsFolder(Path resultsRoot, LocalDate today) throws IOException {
        Path dir = resultsRoot.resolve(today + "-servers");
        for (int i = 2; Files.exists(dir); i++) {
            dir = resultsRoot.resolve(today + "-servers-" + i);
        }
        return Files.createDirectories(dir);
    }

    /** The Maven run for one server: its profile, only its test, no unit tests in the modules it builds. */
    static List<String> command(String server) {
        return List.of("mvn", "-B", "-pl", "benchmarks/servers", "-am", "verify", "-P" + server,
                "-Dtest=none", "-Dsurefire.failIfNoSpecifiedTests=false", "-Dit.test=" + TESTS.get(server),
                "-Dfailsafe.failIfNoSpecifiedTests=false");
    }

    static List<String> chosen(String only) {
        if (only == null) {
            return new ArrayList<>(TESTS.keySet());
        }
        List<String> servers = new ArrayList<>();
        for (String name : only.split(",")) {
            String server = name.strip().toLowerCase(Locale.ROOT);
            if (!TESTS.containsKey(server)) {
                throw new IllegalArgumentException("--only: unknown server '" + name.strip() + "' (known: "
                        + String.join(", ", TESTS.keySet()) + ")");
            }
            servers.add(server);
        }
        return servers;
    }

    /** Verdicts, then one row per metric and a column per server saying whether the agent reported it. */
    static String summary(Map<String, Boolean> passed, Path workDir) throws IOException {
        Map<String, Set<String>> metrics = new LinkedHashMap<>();
        Set<String> all = new TreeSet<>();
        for (String server : passed.keySet()) {
            Path file = workDir.resolve(server).resolve("agent-metrics.txt");
            Set<String> names = new TreeSet<>();
            if (Files.isRegularFile(file)) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    int eq = line.indexOf('=');
                    if (eq > 0 && (line.startsWith("AMX_") || line.startsWith("APP_"))) {
                        names.add(line.substring(0, eq));
                    }
                }
            }
            metrics.put(server, names);
            all.addAll(names);
        }
        StringBuilder md = new StringBuilder("# App servers\n\n| server | tests |\n|---|---|\n");
        passed.forEach((server, ok) -> md.append("| ").append(server).append(" | ").append(ok ? "passed" : "failed")
                .append(" |\n"));
        md.append("\nApplication-server and filter metrics the agent reported (OS and JVM metrics are the same on every"
                + " server):\n\n| metric |");
        passed.keySet().forEach(s -> md.append(' ').append(s).append(" |"));
        md.append("\n|---|");
        passed.keySet().forEach(s -> md.append("---|"));
        md.append('\n');
        for (String name : all) {
            md.append("| ").append(name).append(" |");
            for (String server : passed.keySet()) {
                md.append(metrics.get(server).contains(name) ? " yes |" : " - |");
            }
            md.append('\n');
        }
        return md.toString();
    }
}
