package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.net.ClusterListener;
import io.loadwise.dispatcher.net.ConnectionLimit;
import io.loadwise.dispatcher.net.Transport;

/** Creates the (stopped) listener of a cluster; the dispatcher starts and closes it. */
@FunctionalInterface
public interface ListenerFactory {

    /**
     * @param clientConnections the dispatcher's {@code maxClientConnections}, shared by every listener it
     *     creates, L4 and L7
     */
    ClusterListener create(VirtualCluster cluster, Transport transport, ConnectionLimit clientConnections);
}
