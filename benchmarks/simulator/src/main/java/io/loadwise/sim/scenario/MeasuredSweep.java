package io.loadwise.sim.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadwise.scenario.Vcn3Queue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A {@code bench sweep} results folder as the simulator compares with it: its settings ({@code sweep.json}), the
 * machine's CPUs (README.md) and every cell's runs, from either layout the sweep has written:
 * {@code cells/<scenario>/<row>.json} (one run per cell, 2026-11-22) or {@code cells/<scenario>/<row>/run-<n>.json}.
 * Runs that ended in an error (no figures) are left out and counted.
 */
public final class MeasuredSweep {

    /** One measured run of a cell. */
    public record Run(long samples, long failed, double throughput) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CPUS = Pattern.compile("Machine: (\\d+) CPUs?");

    private final Path folder;
    private final JsonNode settings;
    private final int cores;
    private final Map<String, Map<String, List<Run>>> runs;
    private final int erroredRuns;

    private MeasuredSweep(Path folder, JsonNode settings, int cores, Map<String, Map<String, List<Run>>> runs,
            int erroredRuns) {
        this.folder = folder;
        this.settings = settings;
        this.cores = cores;
        this.runs = runs;
        this.erroredRuns = erroredRuns;
    }

    public static MeasuredSweep read(Path folder) throws IOException {
        Path sweepJson = folder.resolve("sweep.json");
        if (!Files.isRegularFile(sweepJson)) {
            throw new IllegalArgumentException("--compare: " + folder + " is not a sweep folder (no sweep.json)");
        }
        JsonNode settings = JSON.readTree(sweepJson.toFile());
        int cores = TestbedSettings.DEFAULT_CORES;
        Path readme = folder.resolve("README.md");
        if (Files.isRegularFile(readme)) {
            Matcher m = CPUS.matcher(Files.readString(readme));
            if (m.find()) {
                cores = Integer.parseInt(m.group(1));
            }
        }
        Map<String, Map<String, List<Run>>> runs = new LinkedHashMap<>();
        int[] errored = {0};
        Path cells = folder.resolve("cells");
        for (JsonNode scenarioKey : settings.path("scenarios")) {
            String scenario = scenarioKey.asText();
            Path dir = cells.resolve(scenario);
            Map<String, List<Run>> byRow = new LinkedHashMap<>();
            for (JsonNode rowKey : settings.path("rows")) {
                String row = rowKey.asText();
                List<Path> files = new ArrayList<>();
                Path single = dir.resolve(row + ".json");
                Path repeated = dir.resolve(row);
                if (Files.isRegularFile(single)) {
                    files.add(single);
                }
                if (Files.isDirectory(repeated)) {
                    try (Stream<Path> list = Files.list(repeated)) {
                        list.filter(p -> p.getFileName().toString().matches("run-\\d+\\.json")).sorted().forEach(files::add);
                    }
                }
                List<Run> cellRuns = new ArrayList<>();
                for (Path f : files) {
                    JsonNode cell = JSON.readTree(f.toFile());
                    if (!cell.path("error").isNull() && !cell.path("error").isMissingNode()) {
                        errored[0]++;
                        continue;
                    }
                    cellRuns.add(new Run(cell.path("samples").asLong(), cell.path("failed").asLong(),
                            cell.path("throughput").asDouble()));
                }
                if (!cellRuns.isEmpty()) {
                    byRow.put(row, cellRuns);
                }
            }
            runs.put(scenario, byRow);
        }
        return new MeasuredSweep(folder, settings, cores, runs, errored[0]);
    }

    public Path folder() {
        return folder;
    }

    public int cores() {
        return cores;
    }

    public int erroredRuns() {
        return erroredRuns;
    }

    /** Runs of every row of a scenario that has any, in the sweep's row order. */
    public Map<String, List<Run>> scenario(String key) {
        return runs.getOrDefault(key, Map.of());
    }

    public List<String> scenarios() {
        return List.copyOf(runs.keySet());
    }

    /** The most runs any cell has. */
    public int maxRuns() {
        return runs.values().stream().flatMap(m -> m.values().stream()).mapToInt(List::size).max().orElse(0);
    }

    /** Mean throughput of all HTTP runs: with no think time the cores stay busy, so cores / this is the demand. */
    public double meanHttpThroughput() {
        return runs.values().stream().flatMap(m -> m.entrySet().stream()).filter(e -> e.getKey().startsWith("http-"))
                .flatMap(e -> e.getValue().stream()).mapToDouble(Run::throughput).average().orElse(Double.NaN);
    }

    /**
     * Coefficient of variation of throughput across the baseline's HTTP rows (first run each): the nodes are
     * identical there, so it measures how much the machine alone moves a single run. Used as the noise band of a
     * sweep that ran each cell once.
     */
    public double baselineThroughputCv() {
        List<Double> x = scenario("baseline").entrySet().stream().filter(e -> e.getKey().startsWith("http-"))
                .map(e -> e.getValue().get(0).throughput()).toList();
        if (x.size() < 2) {
            return Double.NaN;
        }
        double mean = x.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double ss = x.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
        return Math.sqrt(ss / (x.size() - 1)) / mean;
    }

    /** The sweep's settings as the simulator's, keeping the given model figures (demand, cores, heap base, agents). */
    public TestbedSettings settings(TestbedSettings model) {
        JsonNode full = settings.path("fullNode");
        NodeResources node = new NodeResources(full.path("heapMb").asInt(model.fullNode().heapMb()),
                full.path("httpThreads").asInt(model.fullNode().workers()),
                full.path("acceptQueue").asInt(model.fullNode().queue()),
                full.path("jdbcPool").asInt(model.fullNode().jdbcPool()));
        return new TestbedSettings(settings.path("threads").asInt(model.threads()),
                settings.path("scale").asDouble(model.scale()), node,
                settings.path("sessionStateKb").asInt(model.sessionKb()),
                settings.path("sessionTimeoutSeconds").asInt(model.sessionTimeoutS()),
                settings.path("connectionTtlMs").asInt(model.connectionTtlMs()), model.thinkMs(), model.demandMs(),
                model.cores(), model.baseHeapFraction(), settings.path("jdbcMaxWaitMs").asLong(model.jdbcWaitMs()),
                model.failureMs(), model.agentPeriodMs(), model.agentDelayMs(), model.agentExpiryMs(), model.agentFastMs(),
                model.agentHeaderMs(), model.refreshMs(), settings.path("jdbcHoldMs").asLong(model.jdbcHoldMs()),
                Vcn3Queue.parse(settings.path("vcn3Queue").asText("seed")));
    }

    /** The sweep's balancing mode ("per-connection" or "per-request"); the simulator models per-connection only. */
    public String httpBalance() {
        return settings.path("httpBalance").asText("per-connection");
    }
}
