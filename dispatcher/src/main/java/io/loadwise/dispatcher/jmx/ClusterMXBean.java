package io.loadwise.dispatcher.jmx;

/** {@code io.loadwise:type=Cluster,name=<cluster>}: one cluster's counters and policy. */
public interface ClusterMXBean {

    String getName();

    /** {@code http} or {@code tcp}. */
    String getMode();

    /** The policy in force; writing it switches policy live, as {@code PUT /api/clusters/{name}/policy}. */
    String getPolicy();

    void setPolicy(String policyId);

    int getNodeCount();

    /** Nodes enabled, not draining and healthy. */
    int getNodesInService();

    int getActiveConnections();

    int getActiveRequests();

    long getCompletedRequests();

    long getFailedRequests();

    long getRetries();

    int getQueueLength();

    long getBytesIn();

    long getBytesOut();
}
