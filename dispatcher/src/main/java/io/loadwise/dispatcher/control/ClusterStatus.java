package io.loadwise.dispatcher.control;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.metrics.CounterReading;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * A running cluster as the admin side sees it: values read once, when {@link ClusterControl} was asked,
 * never the runtime objects themselves. Reading it again gives newer values; holding it changes nothing.
 *
 * @param config the cluster's configuration in force, as persisted
 * @param bound the address its listener actually bound (the real port when configured as 0), or
 *     {@code null} while it is not listening
 * @param affinity session-affinity counts since the listener started; {@code null} for a TCP cluster
 * @param totals cumulative counters of the whole cluster since start
 * @param nodes in configuration order
 * @param listener the listener's protocols and certificates; {@code null} when not known
 * @param groups the priority groups and panic state; {@code null} for a cluster without nodes
 */
public record ClusterStatus(String name, ClusterConfig config, InetSocketAddress bound, PolicyStatus policy,
        AffinityCounts affinity, CounterReading totals, List<NodeStatus> nodes, ListenerStatus listener,
        GroupStatus groups) {

    public ClusterStatus {
        nodes = List.copyOf(nodes);
    }

    public ClusterStatus(String name, ClusterConfig config, InetSocketAddress bound, PolicyStatus policy,
            AffinityCounts affinity, CounterReading totals, List<NodeStatus> nodes) {
        this(name, config, bound, policy, affinity, totals, nodes, null, null);
    }

    public Mode mode() {
        return config.mode();
    }

    /** The node with this name, or {@code null}. */
    public NodeStatus node(String name) {
        for (NodeStatus node : nodes) {
            if (node.name().equals(name)) {
                return node;
            }
        }
        return null;
    }
}
