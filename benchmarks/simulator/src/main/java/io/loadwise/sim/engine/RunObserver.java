package io.loadwise.sim.engine;

import io.loadwise.policy.AgentSample;

/**
 * Sees a run's decisions as they happen, for traces that explain a result (which node took the requests
 * of each second, what its agent said at the time). Called on the simulation's thread, in virtual-time
 * order; an observer must not change the nodes.
 */
public interface RunObserver {

    /** Observes nothing: the plain run. */
    RunObserver NONE = new RunObserver() {
        @Override
        public void chosen(long nowNanos, int node) {
        }

        @Override
        public void sampleDelivered(long nowNanos, int node, AgentSample sample) {
        }
    };

    /** Request placed on {@code node} (-1: the policy found none) at virtual time {@code nowNanos}. */
    void chosen(long nowNanos, int node);

    /** {@code sample} reached the dispatcher for {@code node} at {@code nowNanos}. */
    void sampleDelivered(long nowNanos, int node, AgentSample sample);
}
