package io.loadwise.sim.dispatch;

import io.loadwise.sim.engine.SimulatedNode;
import io.loadwise.sim.engine.VirtualClock;
import java.util.List;
import java.util.SplittableRandom;

/** Builds a fresh chooser for each run, over that run's nodes and clock. */
public interface ChooserFactory {

    /** The name used in reports: a policy id, or {@code oracle-lwl}. */
    String name();

    NodeChooser create(List<SimulatedNode> nodes, VirtualClock clock, SplittableRandom random);
}
