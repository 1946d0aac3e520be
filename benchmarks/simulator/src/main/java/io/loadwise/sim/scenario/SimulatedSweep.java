package io.loadwise.sim.scenario;

import io.loadwise.policy.PolicyRegistry;
import io.loadwise.scenario.CapacityScenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every (scenario, row) cell simulated over several seeds, with the sweep's figures per cell as means and 95 %
 * intervals over the seeds.
 */
public final class SimulatedSweep {

    /** One cell's runs. */
    public record Cell(CapacityScenario scenario, SweepRow row, List<CellOutcome> runs) {

        public Interval failed() {
            return Interval.of(runs.stream().map(r -> (double) r.failed()).toList());
        }

        public Interval failedPercent() {
            return Interval.of(runs.stream().map(CellOutcome::failedPercent).toList());
        }

        public Interval throughput() {
            return Interval.of(runs.stream().map(CellOutcome::throughput).toList());
        }

        public double mean(Function<CellOutcome, Double> f) {
            return runs.stream().mapToDouble(f::apply).average().orElse(Double.NaN);
        }
    }

    private final Map<CapacityScenario, Map<String, Cell>> cells = new LinkedHashMap<>();
    private final Map<CapacityScenario, TestbedSettings> settings;

    private SimulatedSweep(Map<CapacityScenario, TestbedSettings> settings) {
        this.settings = settings;
    }

    /** Runs every scenario x row for seeds {@code firstSeed .. firstSeed + seeds - 1}. */
    public static SimulatedSweep run(Map<CapacityScenario, TestbedSettings> settings, List<SweepRow> rows,
            PolicyRegistry registry, long firstSeed, int seeds) {
        SimulatedSweep sweep = new SimulatedSweep(settings);
        for (Map.Entry<CapacityScenario, TestbedSettings> e : settings.entrySet()) {
            Map<String, Cell> byRow = new LinkedHashMap<>();
            for (SweepRow row : rows) {
                List<CellOutcome> runs = new ArrayList<>();
                for (int s = 0; s < seeds; s++) {
                    // the same seed for every row: paired comparisons (same demands and mix draws where paths agree)
                    runs.add(new TestbedSimulation(e.getValue(), e.getKey(), row, registry.get(row.policyId()),
                            firstSeed + s).run());
                }
                byRow.put(row.key(), new Cell(e.getKey(), row, runs));
            }
            sweep.cells.put(e.getKey(), byRow);
        }
        return sweep;
    }

    public Map<String, Cell> scenario(CapacityScenario scenario) {
        return cells.getOrDefault(scenario, Map.of());
    }

    public List<CapacityScenario> scenarios() {
        return List.copyOf(cells.keySet());
    }

    public TestbedSettings settings(CapacityScenario scenario) {
        return settings.get(scenario);
    }
}
