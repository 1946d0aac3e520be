package io.loadwise.sim.grid;

import java.util.ArrayList;
import java.util.List;

/**
 * The axes of the robustness grid (issue 31): agent noise and delay, node speeds, offered load and
 * service-time distribution, each cell run with several seeds.
 *
 * @param noise relative standard deviations of the agents' readings
 * @param delayMillis how late a sample reaches the dispatcher
 * @param speeds node speed sets, by label
 * @param loads offered utilisations ρ
 * @param services service-time models ({@code ServiceTimeModels} syntax), mean 10 ms
 * @param seeds runs per cell (seeds 1..seeds)
 * @param requests requests per run
 */
public record GridAxes(double[] noise, long[] delayMillis, List<Speeds> speeds, double[] loads, List<String> services,
        int seeds, int requests) {

    /** A set of node speeds with its label; a policy's static weights stay 1 (nobody configured them). */
    public record Speeds(String label, double[] speeds) {
    }

    static final Speeds EQUAL = new Speeds("equal", new double[] {1, 1, 1, 1});
    static final Speeds UNEQUAL = new Speeds("1:1:½:½", new double[] {1, 1, 0.5, 0.5});
    /** Heavy-tailed service: bounded Pareto, tail index 1.5, largest demand 1,000 times the smallest. */
    static final String HEAVY_TAILED = "bounded-pareto:1.5,1000";

    /** The grid: 6 × 5 × 2 × 3 × 2 = 360 cells, 3 seeds, 60,000 requests a run. */
    public static final GridAxes FULL = new GridAxes(new double[] {0, 0.05, 0.1, 0.2, 0.3, 0.5},
            new long[] {0, 500, 1000, 2000, 3000}, List.of(EQUAL, UNEQUAL), new double[] {0.5, 0.8, 0.95},
            List.of("exponential", HEAVY_TAILED), 3, 60_000);

    /** A few cells for {@code mvn verify}: the corners that broke before (noise 0, 0.1 and 0.3 at ρ 0.8). */
    public static final GridAxes QUICK = new GridAxes(new double[] {0, 0.1, 0.3}, new long[] {0, 1000},
            List.of(UNEQUAL), new double[] {0.8}, List.of("exponential"), 2, 30_000);

    public GridAxes {
        if (seeds < 1 || requests < 1) {
            throw new IllegalArgumentException("a grid needs at least one seed and one request");
        }
    }

    /** The same axes run with seeds 1..{@code n}. */
    public GridAxes withSeeds(int n) {
        return new GridAxes(noise, delayMillis, speeds, loads, services, n, requests);
    }

    /** Every cell, noise and delay varying fastest (the heat map's columns). */
    public List<GridCell> cells() {
        List<GridCell> cells = new ArrayList<>();
        for (Speeds s : speeds) {
            for (String service : services) {
                for (double rho : loads) {
                    for (long delay : delayMillis) {
                        for (double n : noise) {
                            cells.add(new GridCell(n, delay, s, rho, service));
                        }
                    }
                }
            }
        }
        return cells;
    }
}
