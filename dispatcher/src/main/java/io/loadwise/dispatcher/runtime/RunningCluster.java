package io.loadwise.dispatcher.runtime;

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
            ConnectionLimit clientConnections, NodeMonitor monitor) throws IOException {
        ClusterListener listener = factory.create(cluster, transport, clientConnections);
        if (listener instanceof HttpProxyServer http) {
            http.setLoadReportSink((node, header) -> monitor.offerLoadReport(cluster, node, header));
        }
        listener.start();
        if (cluster.config().mode() == Mode.HTTP) {
            monitor.watch(cluster);
        }
        return new RunningCluster(cluster, listener);
    }

    void close(NodeMonitor monitor) {
        monitor.unwatch(cluster);
        try {
            listener.close();
        } catch (RuntimeException e) {
            log.warn("cluster {}: closing the listener failed", cluster.name(), e);
        }
    }
}
