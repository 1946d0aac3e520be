package io.loadwise.dispatcher.jmx;

/**
 * {@code io.loadwise:type=Node,cluster=<cluster>,name=<node>}: one node's state and counters, and the operator's
 * levers with the same checks as the REST API ({@code PUT /api/clusters/{c}/nodes/{n}}).
 */
public interface NodeMXBean {

    String getCluster();

    String getName();

    String getAddress();

    /** Writing it re-weights the node (persisted, as through the API): 0-10000. */
    int getWeight();

    void setWeight(int weight);

    boolean isEnabled();

    /** Enabled, not draining and healthy. */
    boolean isInService();

    /** {@code none}, {@code immediate} or {@code sessions}. */
    String getDrainMode();

    /** {@code draining}, {@code drained}, {@code deadline-passed}; empty when not draining. */
    String getDrainState();

    boolean isEjected();

    int getActiveConnections();

    int getInFlightRequests();

    long getCompletedRequests();

    long getFailedRequests();

    double getRecentResponseTimeMillis();

    void enable();

    void disable();

    /** {@code sessions} (keep pinned requests until the sessions are gone), {@code immediate} or {@code none}. */
    void drain(String mode);
}
