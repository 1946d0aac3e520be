package io.loadwise.bench.report;

import io.loadwise.bench.sweep.CellResult;
import io.loadwise.bench.sweep.LoadAverage;
import io.loadwise.bench.sweep.RunOrder;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code runs.csv}: every run of the sweep in its randomised order, whether it has run yet, its main
 * figures and the machine's 1/5/15-minute load averages before and after it, so that a reader can see
 * the order, and which runs shared the machine with other work.
 */
final class RunsCsv {

    static final String HEADER = "position,repeat,scenario,policy,status,started_at,samples,failed,failed_pct,"
            + "throughput,latency_ms,p90_ms,load1_before,load5_before,load15_before,load1_after,load5_after,"
            + "load15_after,error";

    private RunsCsv() {
    }

    /** @param results the recorded runs, keyed by {@link #key} */
    static String write(List<RunOrder.Run> order, Map<String, CellResult> results) {
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        for (RunOrder.Run run : order) {
            CellResult r = results.get(key(run.scenario(), run.row(), run.repeat()));
            csv.append(run.position()).append(',').append(run.repeat()).append(',').append(run.scenario()).append(',')
                    .append(run.row()).append(',');
            if (r == null) {
                csv.append("pending").append(",".repeat(HEADER.split(",").length - 5)).append('\n');
                continue;
            }
            csv.append(r.error() == null ? "ok" : "error").append(',').append(r.startedAt()).append(',')
                    .append(String.format(Locale.ROOT, "%d,%d,%.2f,%.2f,%.2f,%d", r.samples(), r.failed(),
                            r.failedPercent(), r.throughput(), r.latencyMs(), r.p90Ms())).append(',')
                    .append(load(r.loadBefore()).csv()).append(',').append(load(r.loadAfter()).csv()).append(',')
                    .append(r.error() == null ? "" : '"' + r.error().replace('"', '\'').replace('\n', ' ') + '"')
                    .append('\n');
        }
        return csv.toString();
    }

    static String key(String scenario, String row, int repeat) {
        return scenario + "/" + row + "/" + repeat;
    }

    private static LoadAverage load(LoadAverage recorded) {
        return recorded == null ? LoadAverage.UNKNOWN : recorded;
    }
}
