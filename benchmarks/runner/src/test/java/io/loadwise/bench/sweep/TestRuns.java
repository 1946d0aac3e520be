package io.loadwise.bench.sweep;

import io.loadwise.bench.dispatcher.NodeLoad;
import java.util.Map;

/** Recorded runs for the report and calibration tests: the figures a test cares about, the rest fixed. */
public final class TestRuns {

    private TestRuns() {
    }

    /** A successful run of 1000 samples with {@code failed} of them failed, {@code vcn3Failures} by the dispatcher on VCN3. */
    public static CellResult run(String scenario, PolicyRow row, int repeat, long failed, double throughput,
            long vcn3Failures) {
        return new CellResult(scenario, row.key(), null, 1000, failed, failed / 10.0, throughput, 20, 15, 40, 90,
                failed == 0 ? Map.of() : Map.of("503", failed), 1000, 0, 21, 19, 0.01, 0.02, 18, 1.001, 25,
                Map.of("VCN1", 50L, "VCN2", 30L, "VCN3", 20L), false, "2026-11-22T00:00:00Z", 50, 24,
                Map.of("VCN3", new NodeLoad(91.5, 100, Double.NaN)), Map.of("VCN3", vcn3Failures), 0, 0, null, null)
                .withRun(repeat, repeat, new LoadAverage(1.5, 1.25, 1), new LoadAverage(2.5, 1.5, 1.125));
    }
}
