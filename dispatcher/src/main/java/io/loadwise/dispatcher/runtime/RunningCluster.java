package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.net.ClusterListener;
import io.loadwise.dispatcher.net.Transport;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A cluster and the listener serving it. */
record RunningCluster(VirtualCluster cluster, ClusterListener listener) {

    private static final Logger log = LoggerFactory.getLogger(RunningCluster.class);

    static RunningCluster start(VirtualCluster cluster, ListenerFactory factory, Transport transport)
            throws IOException {
        ClusterListener listener = factory.create(cluster, transport);
        listener.start();
        return new RunningCluster(cluster, listener);
    }

    void close() {
        try {
            listener.close();
        } catch (RuntimeException e) {
            log.warn("cluster {}: closing the listener failed", cluster.name(), e);
        }
    }
}
