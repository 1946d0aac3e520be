package io.loadwise.bench;

import io.loadwise.bench.scale.ScaleReport;
import io.loadwise.cli.ExitCode;
import io.loadwise.cli.HelpOption;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code scale}: the scale rows of issue 35 on the shipped jar with real processes, run by
 * {@code benchmarks/scale/run-scale.sh} (idle connections against HAProxy, a 1,000-node cluster's heap and
 * reload time, 1,000 routes against 10 with wrk through run-overhead.sh), then rendered by {@link ScaleReport}
 * into {@code benchmarks/results/<date>-<name>/}: README.md, scale.csv, scale.json, next to the raw files.
 */
@Command(name = "scale", customSynopsis = "loadwise bench scale [--rows idle,cluster,routes] [--connections N] [--settle S] ...",
        description = {"Scale: 100,000 idle connections against HAProxy, a 1,000-node cluster, 1,000 routes.",
            "Rows, each on fresh processes (the shipped admin-console/target/loadwise.jar, HAProxy, one NGINX node):",
            "  idle     --connections idle keep-alive connections (one 1 KB request each, spread over source addresses"
                + " 127.0.0.2..N), held by Loadwise L7 and by HAProxy in the same run: RSS once the last one has its"
                + " answer and again after --settle seconds, with the connections still established. The count is cut"
                + " to what the descriptor limit (ulimit -Hn) allows each proxy, and the README says so.",
            "  cluster  the dispatcher's heap after a full GC (jcmd) with 10 and with --nodes nodes (TCP health checks"
                + " every 10 s) and bytes per node; --reloads reloads (POST /api/reload, adding and removing 1 %% of the"
                + " nodes) timed until GET /api/clusters/bench shows them, at 10 and at --nodes nodes.",
            "  routes   req/s and CPU per request (wrk, 50 connections, 1 KB) with a listener of 10 and of --routes"
                + " routes, every request on the last route (run-overhead.sh's loadwise-routes<N>-1t rows).",
            "About 12 minutes with the defaults. Writes benchmarks/results/<date>-<name>/: README.md (table),"
                + " scale.csv, scale.json and the raw idle.csv, cluster.csv, routes/."},
        footer = {"See docs/performance.md, \"Scale\", for what each figure means.",
            "Exit codes: 0 every row ran, 1 a row failed, 2 usage error."})
final class ScaleCommand implements BenchCommand {

    static final List<String> ROWS = List.of("idle", "cluster", "routes");

    @Option(names = "--rows", paramLabel = "A,B", description = "only these rows (default: idle,cluster,routes)")
    String rows;

    @Option(names = "--connections", paramLabel = "N", defaultValue = "100000",
            description = "idle connections to open, 100-1000000 (default ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "--settle", paramLabel = "S", defaultValue = "75",
            description = "seconds the idle connections are held before RSS is read again, 0-3600 (default ${DEFAULT-VALUE})")
    int settle;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "1000",
            description = "nodes of the large cluster, 20-1000 (default ${DEFAULT-VALUE}; against 10)")
    int nodes;

    @Option(names = "--reloads", paramLabel = "N", defaultValue = "20",
            description = "timed reloads at each cluster size, 2-1000 (default ${DEFAULT-VALUE})")
    int reloads;

    @Option(names = "--routes", paramLabel = "N", defaultValue = "1000",
            description = "routes of the large listener, 20-100000 (default ${DEFAULT-VALUE}; against 10)")
    int routes;

    @Option(names = "--route-runs", paramLabel = "N", defaultValue = "3",
            description = "interleaved 10 s wrk runs of each routes target, 1-20 (default ${DEFAULT-VALUE})")
    int routeRuns;

    @Option(names = "--name", paramLabel = "NAME", defaultValue = "scale",
            description = "the results folder is <date>-NAME (default ${DEFAULT-VALUE}; -2, -3... when it exists)")
    String name;

    @Option(names = "--note", paramLabel = "TEXT", description = "a line for the README, e.g. that the machine was shared")
    String note;

    @Option(names = "--report-only", paramLabel = "DIR",
            description = "run nothing: render README.md, scale.csv and scale.json again from DIR's raw files")
    Path reportOnly;

    @Option(names = "--dispatcher-jar", paramLabel = "JAR", description = "the Loadwise to measure (default: admin-console/target/loadwise.jar)")
    Path dispatcherJar;

    @Option(names = "--root", paramLabel = "DIR", description = "the repository (default: the one this jar was built in)")
    Path root;

    @Mixin
    HelpOption help;

    ScaleCommand() {
    }

    @Override
    public int call(PrintStream out) throws IOException, InterruptedException {
        List<String> chosen = chosen(rows);
        validate();
        if (reportOnly != null) {
            if (!Files.isDirectory(reportOnly)) {
                throw new IllegalArgumentException("--report-only: " + reportOnly + " is not a folder");
            }
            render(reportOnly, readme(reportOnly), out);
            return ExitCode.OK;
        }
        Path root = (this.root != null ? this.root : Locations.defaultRoot()).toAbsolutePath().normalize();
        Path jar = dispatcherJar != null ? dispatcherJar.toAbsolutePath() : root.resolve("admin-console/target/loadwise.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException(jar + " does not exist: build it (mvn -B -q -DskipTests package) or give"
                    + " --dispatcher-jar");
        }
        Path script = root.resolve("benchmarks/scale/run-scale.sh");
        if (!Files.isRegularFile(script)) {
            throw new IllegalArgumentException(script + " is missing in this checkout");
        }
        Path results = folder(root.resolve("benchmarks/results"), LocalDate.now(ZoneOffset.UTC), name);
        out.println("scale: rows " + String.join(",", chosen) + "; results in " + results);
        String loadBefore = loadAverage();
        String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        ProcessBuilder process = new ProcessBuilder("bash", script.toString()).directory(root.toFile())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.PIPE);
        process.environment().putAll(Map.of("OUT", results.toString(), "JAR", jar.toString(),
                "ROWS", String.join(" ", chosen), "CONNECTIONS", Integer.toString(connections),
                "SETTLE", Integer.toString(settle), "NODES", Integer.toString(nodes), "RELOADS", Integer.toString(reloads),
                "ROUTES", Integer.toString(routes), "ROUTE_RUNS", Integer.toString(routeRuns)));
        Process running = process.start();
        try (var lines = running.inputReader(StandardCharsets.UTF_8).lines()) {
            lines.forEach(out::println); // the script's progress lines, as they come
        }
        int code = running.waitFor();
        String header = header(started, loadBefore, loadAverage(), jar, chosen);
        Files.writeString(results.resolve("header.md"), header, StandardCharsets.UTF_8);
        render(results, header, out);
        if (code != 0) {
            out.println("scale: run-scale.sh exited with " + code + "; the README has the rows that ran");
            return ExitCode.FAILURE;
        }
        return ExitCode.OK;
    }

    private void validate() {
        range("--connections", connections, 100, 1_000_000);
        range("--settle", settle, 0, 3_600);
        range("--nodes", nodes, 20, 1_000);
        range("--reloads", reloads, 2, 1_000);
        range("--routes", routes, 20, 100_000);
        range("--route-runs", routeRuns, 1, 20);
        if (!name.matches("[a-z0-9][a-z0-9-]{0,40}")) {
            throw new IllegalArgumentException("--name must be lower-case letters, digits and '-', got '" + name + "'");
        }
    }

    private static void range(String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s must be %d-%d, got %d", option, min, max,
                    value));
        }
    }

    private static void render(Path folder, String header, PrintStream out) throws IOException {
        ScaleReport.read(folder).write(folder, header);
        out.println("scale: " + folder.resolve("README.md"));
    }

    /** The README's header of an earlier run: its header.md, else a bare title. */
    private static String readme(Path folder) throws IOException {
        Path header = folder.resolve("header.md");
        return Files.isRegularFile(header) ? Files.readString(header, StandardCharsets.UTF_8)
                : "# Scale: " + folder.getFileName() + "\n";
    }

    private String header(String started, String loadBefore, String loadAfter, Path jar, List<String> chosen) {
        StringBuilder md = new StringBuilder("# Scale (issue 35 item 5)\n\n");
        md.append("Run ").append(started).append(" on ").append(Runtime.getRuntime().availableProcessors())
                .append(" cores by `./loadwise bench scale --rows ").append(String.join(",", chosen))
                .append(" --connections ").append(connections).append(" --settle ").append(settle)
                .append(" --nodes ").append(nodes).append(" --reloads ").append(reloads).append(" --routes ")
                .append(routes).append(" --route-runs ").append(routeRuns).append("`, on ").append(jar.getFileName())
                .append(" (default JVM options). Load average before ").append(loadBefore).append(", after ")
                .append(loadAfter).append(".\n\n");
        if (note != null && !note.isBlank()) {
            md.append("**").append(note.strip()).append("**\n\n");
        }
        md.append("- idle: RSS of each proxy process (VmRSS) with the idle keep-alive connections, once the last has"
                + " its answer and after the settle time; \"connections held\" counts them established (ss) at that"
                + " reading. Loadwise's cluster has idleTimeoutMs 3600000 and HAProxy timeout client and"
                + " http-keep-alive 1 h, so that neither closes them during the settle time.\n");
        md.append("- cluster: heap used after two full collections (jcmd GC.run, GC.heap_info) of one dispatcher"
                + " reloaded from 10 to N nodes; nodes are 127.0.0.<1..250> on 4 ports of one NGINX, TCP health"
                + " checks every 10 s (100 checks/s at 1,000 nodes). Reload: POST /api/reload until GET"
                + " /api/clusters/bench shows the new node count, adding and removing 1 % of the nodes in turn.\n");
        md.append("- routes: wrk -t1 -c50, 1 KB, medians of interleaved 10 s runs, after 30 s of warm-up; CPU is the"
                + " dispatcher's utime + stime per request (routes/README.md has every column).\n");
        return md.toString();
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip().split(" ")[0];
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** {@code <date>-<name>}, or {@code <date>-<name>-2}, ... when an earlier run of the day has it. */
    static Path folder(Path resultsRoot, LocalDate today, String name) throws IOException {
        Path dir = resultsRoot.resolve(today + "-" + name);
        for (int i = 2; Files.exists(dir); i++) {
            dir = resultsRoot.resolve(today + "-" + name + "-" + i);
        }
        return Files.createDirectories(dir);
    }

    static List<String> chosen(String rows) {
        if (rows == null) {
            return ROWS;
        }
        List<String> chosen = new ArrayList<>();
        for (String row : rows.split(",")) {
            String r = row.strip().toLowerCase(Locale.ROOT);
            if (!ROWS.contains(r)) {
                throw new IllegalArgumentException("--rows: unknown row '" + row.strip() + "' (known: "
                        + String.join(", ", ROWS) + ")");
            }
            chosen.add(r);
        }
        return chosen;
    }
}
