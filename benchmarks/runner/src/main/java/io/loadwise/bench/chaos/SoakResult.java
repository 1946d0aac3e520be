package io.loadwise.bench.chaos;

import java.util.List;

/** What a soak measured, for {@link SoakReport}. */
public record SoakResult(int minutes, int rate, String rateSource, int faultEvery, boolean etcd, String loadAverage,
        SoakStats stats, List<ProcSample> samples, List<SoakFault> faults, List<KillWindows.Window> windows) {
}
