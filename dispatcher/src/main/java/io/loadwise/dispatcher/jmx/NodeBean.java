package io.loadwise.dispatcher.jmx;

import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.metrics.CounterReading;

/**
 * {@link NodeMXBean} over the control plane. Its levers call the same {@link ClusterControl} methods as the REST
 * API, so the same checks hold (a weight out of range is refused with the validator's message) and the same
 * changes are persisted.
 */
final class NodeBean implements NodeMXBean {

    private final ClusterControl control;
    private final String cluster;
    private final String name;

    NodeBean(ClusterControl control, String cluster, String name) {
        this.control = control;
        this.cluster = cluster;
        this.name = name;
    }

    private NodeStatus status() {
        return Levers.node(control, cluster, name);
    }

    private CounterReading counters() {
        CounterReading counters = status().counters();
        return counters == null ? CounterReading.ZERO : counters;
    }

    @Override
    public String getCluster() {
        return cluster;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getAddress() {
        return status().address().getHostString() + ":" + status().address().getPort();
    }

    @Override
    public int getWeight() {
        return status().weight();
    }

    @Override
    public void setWeight(int weight) {
        status(); // an unknown node is refused as such, not as a bad weight
        Levers.apply(() -> control.updateNode(cluster, name, null, weight, null));
    }

    @Override
    public boolean isEnabled() {
        return status().enabled();
    }

    @Override
    public boolean isInService() {
        return status().inService();
    }

    @Override
    public String getDrainMode() {
        return status().drain() == null ? DrainMode.NONE.id() : status().drain().mode().id();
    }

    @Override
    public String getDrainState() {
        return status().drain() == null ? "" : status().drain().state();
    }

    @Override
    public boolean isEjected() {
        return status().ejected();
    }

    @Override
    public int getActiveConnections() {
        return status().activeConnections();
    }

    @Override
    public int getInFlightRequests() {
        return status().inFlightRequests();
    }

    @Override
    public long getCompletedRequests() {
        return counters().completed();
    }

    @Override
    public long getFailedRequests() {
        return counters().failed();
    }

    @Override
    public double getRecentResponseTimeMillis() {
        return status().recentResponseTimeMillis();
    }

    @Override
    public void enable() {
        status();
        Levers.apply(() -> control.updateNode(cluster, name, true, null, null));
    }

    @Override
    public void disable() {
        status();
        Levers.apply(() -> control.updateNode(cluster, name, false, null, null));
    }

    @Override
    public void drain(String mode) {
        DrainMode drain = switch (mode == null ? "" : mode) {
            case "sessions" -> DrainMode.SESSIONS;
            case "immediate" -> DrainMode.IMMEDIATE;
            case "none" -> DrainMode.NONE;
            default -> throw new IllegalArgumentException(
                    "drain mode: expected sessions, immediate or none, got '" + mode + "'");
        };
        status();
        Levers.apply(() -> control.drainNode(cluster, name, drain, 0, NodeConfig.DEFAULT_SESSION_IDLE_MS));
    }
}
