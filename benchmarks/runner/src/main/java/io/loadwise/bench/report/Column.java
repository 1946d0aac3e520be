package io.loadwise.bench.report;

import io.loadwise.bench.stats.Interval;
import io.loadwise.bench.sweep.CellResult;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * A numeric column of the scenario tables: header, value of one run, decimals, and whether the tables show
 * its 95 % interval over the repeats (throughput, failures and response times: the figures a ranking or a
 * reader compares) or only its mean (the dispatcher's diagnostics).
 */
record Column(String header, ToDoubleFunction<CellResult> value, int decimals, boolean interval) {

    Column(String header, ToDoubleFunction<CellResult> value, int decimals) {
        this(header, value, decimals, false);
    }

    /** The seed's Table 8 layout, JMeter figures for samples, throughput, failures and latency. */
    static final List<Column> TABLE = List.of(
            new Column("Samples", r -> r.samples(), 0),
            new Column("Active Conns", CellResult::activeConns, 2),
            new Column("Throughput", CellResult::throughput, 2, true),
            new Column("Failed", r -> r.failed(), 0, true),
            new Column("Failed %", CellResult::failedPercent, 2, true),
            new Column("Latency", CellResult::latencyMs, 2, true),
            new Column("p90", r -> r.p90Ms(), 0, true),
            new Column("WT1", CellResult::wt1Ms, 3),
            new Column("WT2", CellResult::wt2Ms, 3),
            new Column("PT", CellResult::ptMs, 2),
            new Column("Slow-down", CellResult::slowdown, 3),
            new Column("Node Sels", CellResult::nodeSels, 2),
            new Column("LB Failed", r -> r.lbFailed(), 0),
            new Column("VCN1 sel %", r -> r.selectionShare("VCN1"), 1),
            new Column("VCN2 sel %", r -> r.selectionShare("VCN2"), 1),
            new Column("VCN3 sel %", r -> r.selectionShare("VCN3"), 1),
            new Column("VCN3 LB failed", r -> r.failuresByNode() == null ? Double.NaN : r.failuresOn("VCN3"), 0),
            // VCN3's highest heap, worker-thread and JDBC use from its agent: did it really run out?
            new Column("VCN3 peak heap %", r -> r.peakLoad("VCN3").heapPercent(), 0),
            new Column("VCN3 peak threads %", r -> r.peakLoad("VCN3").threadsPercent(), 0),
            new Column("VCN3 peak JDBC %", r -> r.peakLoad("VCN3").jdbcPercent(), 0));

    /** This column's mean and 95 % interval over {@code runs}. */
    Interval over(List<CellResult> runs) {
        return Interval.of(runs.stream().mapToDouble(value).toArray());
    }

    /** The value, or "n/a" for NaN (a figure nobody reported, e.g. agent metrics of a TCP row). */
    String format(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
