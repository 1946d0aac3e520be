package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.NodeHandover;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.http.HttpProxyServer;
import io.loadwise.dispatcher.monitor.NodeMonitor;
import io.loadwise.dispatcher.net.ClusterListener;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.Transport;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A cluster and the listener serving it. */
record RunningCluster(VirtualCluster cluster, ClusterListener listener) {

    private static final Logger log = LoggerFactory.getLogger(RunningCluster.class);

    /**
     * Creates and starts the cluster's listener. An HTTP cluster's agents are watched by {@code monitor},
     * which also receives the load reports its nodes piggyback on responses; a TCP cluster is not
     * monitored (its policies are state-blind, see the validator).
     *
     * @param clientConnections the dispatcher's client-connection limit, shared by all its listeners
     */
    static RunningCluster start(VirtualCluster cluster, ListenerFactory factory, Transport transport,
            ConnectionLimit clientConnections, NodeMonitor monitor, Resilience resilience) throws IOException {
        return start(cluster, null, factory, transport, clientConnections, monitor, resilience);
    }

    /**
     * Like {@link #start(VirtualCluster, ListenerFactory, Transport, ConnectionLimit, NodeMonitor, Resilience)},
     * but on the listening socket of {@code previous} (same address and mode) when it is not {@code null}: the
     * socket is handed over, never closed. {@code previous} must then be {@link #drain drained}.
     */
    static RunningCluster start(VirtualCluster cluster, RunningCluster previous, ListenerFactory factory,
            Transport transport, ConnectionLimit clientConnections, NodeMonitor monitor, Resilience resilience)
            throws IOException {
        return start(cluster, previous, NodeHandover.NONE, factory, transport, clientConnections, monitor, resilience);
    }

    /**
     * As above, for a cluster that replaces {@code handover}'s previous one (see {@link NodeHandover}): health
     * checks, outlier detection and slow start are set up with the kept nodes' state before the listener takes
     * its first connection, so no pick sees a kept node as unknown.
     */
    static RunningCluster start(VirtualCluster cluster, RunningCluster previous, NodeHandover handover,
            ListenerFactory factory, Transport transport, ConnectionLimit clientConnections, NodeMonitor monitor,
            Resilience resilience) throws IOException {
        ClusterListener listener = factory.create(cluster, transport, clientConnections);
        if (listener instanceof HttpProxyServer http) {
            http.setLoadReportSink((node, header) -> monitor.offerLoadReport(cluster, node, header));
        }
        if (cluster.config().mode() == Mode.HTTP) {
            monitor.watch(cluster);
        }
        resilience.watch(cluster, handover);
        try {
            if (previous == null) {
                listener.start();
            } else {
                listener.takeOver(previous.listener());
            }
        } catch (IOException | RuntimeException e) {
            resilience.unwatch(cluster);
            monitor.unwatch(cluster);
            throw e;
        }
        return new RunningCluster(cluster, listener);
    }

    /**
     * Retires the cluster gracefully: its agents are no longer watched nor its nodes checked, its listener
     * stops accepting (unless its socket was handed over) and its connections end after what they have in
     * flight.
     */
    void drain(NodeMonitor monitor, Resilience resilience) {
        resilience.unwatch(cluster);
        monitor.unwatch(cluster);
        try {
            listener.drain();
        } catch (RuntimeException e) {
            log.warn("cluster {}: draining the listener failed", cluster.name(), e);
        }
    }

    void close(NodeMonitor monitor, Resilience resilience) {
        resilience.unwatch(cluster);
        monitor.unwatch(cluster);
        try {
            listener.close();
        } catch (RuntimeException e) {
            log.warn("cluster {}: closing the listener failed", cluster.name(), e);
        }
    }
}
