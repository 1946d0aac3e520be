package io.loadwise.dispatcher.jmx;

import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.metrics.CounterReading;
import java.util.Map;

/** {@link ClusterMXBean} over the control plane: every read is the cluster's state at that moment. */
final class ClusterBean implements ClusterMXBean {

    private final ClusterControl control;
    private final String name;

    ClusterBean(ClusterControl control, String name) {
        this.control = control;
        this.name = name;
    }

    private ClusterStatus status() {
        return Levers.cluster(control, name);
    }

    private CounterReading totals() {
        CounterReading totals = status().totals();
        return totals == null ? CounterReading.ZERO : totals;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getMode() {
        return status().mode().name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public String getPolicy() {
        return status().policy().id();
    }

    @Override
    public void setPolicy(String policyId) {
        Levers.apply(() -> control.switchPolicy(name, policyId, Map.of()));
    }

    @Override
    public int getNodeCount() {
        return status().nodes().size();
    }

    @Override
    public int getNodesInService() {
        int up = 0;
        for (NodeStatus node : status().nodes()) {
            if (node.inService()) {
                up++;
            }
        }
        return up;
    }

    @Override
    public int getActiveConnections() {
        return totals().activeConnections();
    }

    @Override
    public int getActiveRequests() {
        return totals().activeRequests();
    }

    @Override
    public long getCompletedRequests() {
        return totals().completed();
    }

    @Override
    public long getFailedRequests() {
        return totals().failed();
    }

    @Override
    public long getRetries() {
        return totals().retries();
    }

    @Override
    public int getQueueLength() {
        return totals().queueLength();
    }

    @Override
    public long getBytesIn() {
        return totals().bytesIn();
    }

    @Override
    public long getBytesOut() {
        return totals().bytesOut();
    }
}
