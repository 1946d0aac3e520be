package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.net.ClusterListener;
import io.loadwise.dispatcher.net.Transport;

/** Creates the (stopped) listener of a cluster; the dispatcher starts and closes it. */
@FunctionalInterface
public interface ListenerFactory {

    ClusterListener create(VirtualCluster cluster, Transport transport);
}
