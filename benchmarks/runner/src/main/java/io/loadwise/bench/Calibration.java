package io.loadwise.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.loadwise.bench.sweep.CellResult;
import io.loadwise.bench.sweep.SweepSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What {@code bench calibrate} found and {@code bench sweep} uses: per scenario, the first settings tried
 * under which the scenario bites ({@link #bites}), as sweep options, and the first settings under which every
 * calibrated scenario bites ({@code common}), if any. Stored as JSON.
 *
 * @param written   when (ISO instant)
 * @param criterion the rule, in words
 * @param scenarios per scenario key, the sweep options that make it bite (absent: none of the tried did)
 * @param common    options under which every calibrated scenario bites, null when no tried setting does
 * @param tried     every (setting, scenario) tried, with its verdict
 */
record Calibration(String written, String criterion, Map<String, List<String>> scenarios, List<String> common,
        List<Trial> tried) {

    static final String CRITERION = "HTTP round robin fails at least " + Calibration.MIN_FAILED_PERCENT
            + " % of its requests (JMeter, mean over its runs), mostly on VCN3 (the dispatcher's failures on VCN3"
            + " outnumber those on VCN1 and VCN2 together, or VCN3 logged an OutOfMemoryError), and the HTTP static"
            + " WRR 2:2:1 control fails none in every run";
    static final double MIN_FAILED_PERCENT = 1.0;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The sweep options a calibration records: what shapes the load and the nodes, not where programs live. */
    static final List<String> RECORDED_OPTIONS = List.of("--scale", "--threads", "--heap-mb", "--node-threads",
            "--node-queue", "--vcn3-queue", "--node-jdbc", "--jdbc-hold-ms", "--jdbc-max-wait-ms", "--session-kb", "--session-timeout-s", "--http-balance",
            "--connection-ttl-ms", "--provisioner");

    /**
     * One setting tried on one scenario.
     *
     * @param value          the varied option's value ("default" when nothing was varied)
     * @param scenario       scenario key
     * @param options        the complete recorded sweep options of this setting
     * @param roundRobinFailedPercent mean JMeter failed % of round robin
     * @param roundRobinFailuresOnVcn3 the dispatcher's failures on VCN3 under round robin, all runs
     * @param roundRobinFailuresElsewhere the dispatcher's failures on VCN1 and VCN2 under round robin, all runs
     * @param vcn3OutOfMemory whether VCN3 logged an OutOfMemoryError under round robin
     * @param controlFailed  JMeter failures of the 2:2:1 control, all runs
     * @param bites          whether this setting meets the criterion
     */
    record Trial(String value, String scenario, List<String> options, double roundRobinFailedPercent,
            long roundRobinFailuresOnVcn3, long roundRobinFailuresElsewhere, boolean vcn3OutOfMemory,
            long controlFailed, boolean bites) {
    }

    /**
     * Whether the scenario bites: every run of both policies ran, round robin fails at least 1 % (mean), its
     * failures come from VCN3 running out, and the control fails nothing in any run.
     */
    static boolean bites(List<CellResult> roundRobin, List<CellResult> control, boolean vcn3OutOfMemory) {
        if (roundRobin.isEmpty() || control.isEmpty()
                || roundRobin.stream().anyMatch(r -> r.error() != null) || control.stream().anyMatch(r -> r.error() != null)) {
            return false;
        }
        double failedPercent = roundRobin.stream().mapToDouble(CellResult::failedPercent).average().orElse(0);
        long onVcn3 = roundRobin.stream().mapToLong(r -> r.failuresOn("VCN3")).sum();
        long elsewhere = roundRobin.stream().mapToLong(r -> r.failuresOn("VCN1") + r.failuresOn("VCN2")).sum();
        boolean throughVcn3 = vcn3OutOfMemory || onVcn3 > elsewhere;
        return failedPercent >= MIN_FAILED_PERCENT && throughVcn3 && control.stream().allMatch(r -> r.failed() == 0);
    }

    /** A trial's figures and verdict. */
    static Trial trial(String value, String scenario, List<String> options, List<CellResult> roundRobin,
            List<CellResult> control, boolean vcn3OutOfMemory) {
        List<CellResult> rr = roundRobin.stream().filter(r -> r.error() == null).toList();
        return new Trial(value, scenario, options,
                rr.stream().mapToDouble(CellResult::failedPercent).average().orElse(Double.NaN),
                rr.stream().mapToLong(r -> r.failuresOn("VCN3")).sum(),
                rr.stream().mapToLong(r -> r.failuresOn("VCN1") + r.failuresOn("VCN2")).sum(), vcn3OutOfMemory,
                control.stream().mapToLong(CellResult::failed).sum(), bites(roundRobin, control, vcn3OutOfMemory));
    }

    /** The trials (in the order tried) summed up: per scenario its first biting setting, and a common one. */
    static Calibration of(String written, List<Trial> tried) {
        Map<String, List<String>> scenarios = new LinkedHashMap<>();
        Map<List<String>, Set<String>> bitingByOptions = new LinkedHashMap<>();
        Set<String> all = new java.util.LinkedHashSet<>();
        for (Trial t : tried) {
            all.add(t.scenario());
            if (t.bites()) {
                scenarios.putIfAbsent(t.scenario(), t.options());
                bitingByOptions.computeIfAbsent(t.options(), o -> new java.util.HashSet<>()).add(t.scenario());
            }
        }
        List<String> common = bitingByOptions.entrySet().stream().filter(e -> e.getValue().containsAll(all))
                .map(Map.Entry::getKey).findFirst().orElse(null);
        return new Calibration(written, CRITERION, scenarios, common, List.copyOf(tried));
    }

    /** The recorded options of a sweep's effective settings (its {@code sweep.json}). */
    static List<String> options(SweepSettings s) {
        return List.of("--scale", number(s.scale()), "--threads", Integer.toString(s.threads()),
                "--heap-mb", Integer.toString(s.fullNode().heapMb()), "--node-threads", Integer.toString(s.fullNode().httpThreads()),
                "--node-queue", Integer.toString(s.fullNode().acceptQueue()), "--vcn3-queue", s.vcn3Queue(),
                "--node-jdbc", Integer.toString(s.fullNode().jdbcPool()),
                "--jdbc-hold-ms", Long.toString(s.jdbcHoldMs()), "--jdbc-max-wait-ms", Long.toString(s.jdbcMaxWaitMs()),
                "--session-kb", Integer.toString(s.sessionStateKb()), "--session-timeout-s", Integer.toString(s.sessionTimeoutSeconds()),
                "--http-balance", s.httpBalance(), "--connection-ttl-ms", Integer.toString(s.connectionTtlMs()),
                "--provisioner", s.provisioner());
    }

    /**
     * The options to sweep {@code scenarioKeys} with: the calibrated options of those that were calibrated,
     * when they all share them, otherwise the common ones. A scenario the calibration never tried (the
     * baseline, whose identical nodes are not meant to bite) follows the others.
     *
     * @throws IllegalArgumentException when a calibrated scenario was never made to bite, or the scenarios
     *         need different settings and no common one was found
     */
    List<String> optionsFor(List<String> scenarioKeys, Path file) {
        Set<String> triedScenarios = new java.util.HashSet<>();
        tried.forEach(t -> triedScenarios.add(t.scenario()));
        List<String> calibrated = scenarioKeys.stream().filter(triedScenarios::contains).toList();
        if (calibrated.isEmpty()) {
            throw new IllegalArgumentException("calibration " + file + " calibrated none of " + scenarioKeys
                    + " (only " + new TreeMap<>(scenarios).keySet() + "); pass --calibrated none or calibrate them");
        }
        List<String> missing = calibrated.stream().filter(k -> !scenarios.containsKey(k)).toList();
        Set<List<String>> distinct = new java.util.LinkedHashSet<>();
        calibrated.stream().filter(scenarios::containsKey).forEach(k -> distinct.add(scenarios.get(k)));
        if (missing.isEmpty() && distinct.size() == 1) {
            return distinct.iterator().next();
        }
        if (common != null) {
            return common;
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("calibration " + file + " found no setting under which " + missing
                    + " bites; calibrate again with other values, pass --calibrated none, or leave those scenarios out");
        }
        Map<String, List<String>> differing = new TreeMap<>();
        calibrated.forEach(k -> differing.put(k, scenarios.get(k)));
        throw new IllegalArgumentException("calibration " + file + ": the scenarios bite under different settings and"
                + " no setting bites in all of them, so one sweep cannot interleave them: sweep each group with its own"
                + " --scenarios (" + differing + ")");
    }

    /**
     * {@code calibrated} options with {@code given} (the command line's own) on top: a calibrated option the
     * command line also gives is dropped.
     */
    static List<String> merge(List<String> calibrated, List<String> given) {
        Set<String> givenNames = new java.util.HashSet<>();
        for (String arg : given) {
            if (arg.startsWith("--")) {
                givenNames.add(arg);
            }
        }
        List<String> merged = new ArrayList<>();
        for (int i = 0; i + 1 < calibrated.size(); i += 2) {
            if (!givenNames.contains(calibrated.get(i))) {
                merged.add(calibrated.get(i));
                merged.add(calibrated.get(i + 1));
            }
        }
        merged.addAll(given);
        return merged;
    }

    void write(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        JSON.writeValue(file.toFile(), this);
    }

    static Calibration read(Path file) {
        try {
            Calibration c = JSON.readValue(file.toFile(), Calibration.class);
            if (c.scenarios() == null) {
                throw new IllegalArgumentException("calibration " + file + " has no scenarios");
            }
            return c;
        } catch (IOException e) {
            throw new IllegalArgumentException("calibration " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    /** The table of trials for calibration.md. */
    String markdown() {
        StringBuilder md = new StringBuilder("## Chosen settings\n\nCriterion: ").append(criterion).append(".\n\n")
                .append("| value | scenario | RR failed % | RR LB failures on VCN3 / elsewhere | VCN3 OOM |"
                        + " control failed | bites |\n|---|---|---:|---|---|---:|---|\n");
        for (Trial t : tried) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %d / %d | %s | %d | %s |%n", t.value(), t.scenario(),
                    t.roundRobinFailedPercent(), t.roundRobinFailuresOnVcn3(), t.roundRobinFailuresElsewhere(),
                    t.vcn3OutOfMemory() ? "yes" : "no", t.controlFailed(), t.bites() ? "**yes**" : "no"));
        }
        md.append('\n');
        scenarios.forEach((k, o) -> md.append("- ").append(k).append(": `").append(String.join(" ", o)).append("`\n"));
        md.append(common == null ? "- no setting tried bites in every scenario\n"
                : "- every scenario: `" + String.join(" ", common) + "`\n");
        return md.toString();
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
