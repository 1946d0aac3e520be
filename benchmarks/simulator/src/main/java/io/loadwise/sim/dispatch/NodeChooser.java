package io.loadwise.sim.dispatch;

/** The simulated dispatcher's decision: which node serves request {@code i}. */
public interface NodeChooser {

    /**
     * @param demandSeconds the request's service demand; only the oracle may look at it
     * @return the index of the chosen node, or -1 when the policy returned none (the dispatcher would
     *     answer 503)
     */
    int choose(int request, double demandSeconds);

    /** A batch of agent samples has just been delivered. */
    void onAgentSamples();
}
