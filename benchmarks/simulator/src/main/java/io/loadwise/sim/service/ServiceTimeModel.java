package io.loadwise.sim.service;

import io.loadwise.sim.workload.Trace;
import java.util.SplittableRandom;

/**
 * How long each request keeps a node of speed 1 busy. Demands are drawn once per run, before any
 * policy runs, so that every policy compared in a run serves exactly the same work (paired runs), and
 * so that the simulator-only oracle can know them.
 */
public interface ServiceTimeModel {

    /** One line for reports, e.g. {@code "exponential, mean 9.603 ms"}. */
    String description();

    /** Service demand in seconds of every request of {@code trace}. */
    double[] demands(Trace trace, SplittableRandom random);
}
