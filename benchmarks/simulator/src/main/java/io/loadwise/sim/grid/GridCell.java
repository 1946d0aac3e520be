package io.loadwise.sim.grid;

import java.util.Locale;

/** One cell of the robustness grid. */
public record GridCell(double noise, long delayMillis, GridAxes.Speeds speeds, double rho, String service) {

    /** The heat map's row: speeds, service and load. */
    public String rowLabel() {
        return String.format(Locale.ROOT, "%s, %s, ρ %.2f", speeds.label(),
                service.startsWith("bounded-pareto") ? "heavy tail" : service, rho);
    }

    /** The heat map's column: noise and delay. */
    public String columnLabel() {
        return String.format(Locale.ROOT, "%.0f%% %.1fs", 100 * noise, delayMillis / 1000.0);
    }
}
