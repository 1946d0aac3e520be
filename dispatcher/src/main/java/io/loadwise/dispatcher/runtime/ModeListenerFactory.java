package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.net.ClusterListener;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.tcp.TcpProxyServer;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;

/**
 * The production listener for each mode: {@link TcpProxyServer} for tcp, {@code HttpProxyServer} for
 * http. The HTTP server is looked up by name so that the runtime does not depend on how the L7 package
 * is built; a build without it refuses http clusters with a clear message.
 */
public final class ModeListenerFactory implements ListenerFactory {

    static final String HTTP_SERVER = "io.loadwise.dispatcher.http.HttpProxyServer";

    @Override
    public ClusterListener create(VirtualCluster cluster, Transport transport) {
        return switch (cluster.config().mode()) {
            case TCP -> new TcpProxyServer(cluster, transport);
            case HTTP -> http(cluster, transport);
        };
    }

    private static ClusterListener http(VirtualCluster cluster, Transport transport) {
        Constructor<?> constructor;
        try {
            constructor = Class.forName(HTTP_SERVER).getConstructor(VirtualCluster.class, Transport.class);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            throw new UnsupportedOperationException("cluster " + cluster.name()
                    + ": mode http is not available in this build (" + HTTP_SERVER + " missing)", e);
        }
        try {
            return (ClusterListener) constructor.newInstance(cluster, transport);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
