package io.loadwise.console;

import io.loadwise.dispatcher.cluster.NodeAddress;
import io.loadwise.dispatcher.config.AdminConfig;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ControlPlane;
import java.net.InetSocketAddress;

/**
 * The admin side of the dispatcher process: the REST API on embedded Tomcat, bound to
 * {@code admin.listen} (loopback by default). Found by the dispatcher through {@link java.util.ServiceLoader}.
 */
public final class ConsoleControlPlane implements ControlPlane {

    private AdminServer server;

    /** For {@link java.util.ServiceLoader}. */
    public ConsoleControlPlane() {
    }

    /**
     * @throws IllegalArgumentException when there is no token (the API never runs unauthenticated) or
     *     {@code admin.listen} is not host:port
     * @throws java.io.IOException when the address cannot be bound
     */
    @Override
    public synchronized void start(ClusterControl control, AdminConfig admin, String token) throws Exception {
        if (server != null) {
            throw new IllegalStateException("admin API already started on port " + server.port());
        }
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException(
                    "admin API needs a bearer token: set LOADWISE_ADMIN_TOKEN or admin.token in the config file");
        }
        String listen = admin == null ? AdminConfig.DEFAULT_LISTEN : admin.listenOrDefault();
        InetSocketAddress address;
        try {
            address = NodeAddress.parseListen(listen);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("admin.listen: " + e.getMessage(), e);
        }
        server = AdminServer.start(address, control, token);
    }

    @Override
    public synchronized int port() {
        if (server == null) {
            throw new IllegalStateException("admin API not started");
        }
        return server.port();
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
