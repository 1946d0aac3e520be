package io.loadwise.dispatcher.control;

import io.loadwise.dispatcher.config.AdminConfig;
import io.loadwise.dispatcher.net.NodeAddress;
import java.net.InetSocketAddress;

/**
 * The admin side of the process (REST API, console), found through {@link java.util.ServiceLoader} so the
 * dispatcher module does not depend on it. {@code admin-console} provides the implementation; without
 * it on the class path the dispatcher runs headless and logs that it does.
 */
public interface ControlPlane extends AutoCloseable {

    /**
     * Starts serving. Called once, after the clusters are listening.
     *
     * @param control the only way to the running dispatcher: views and commands
     * @param token the effective bearer token ({@code LOADWISE_ADMIN_TOKEN} or {@code admin.token})
     */
    void start(ClusterControl control, AdminConfig admin, String token) throws Exception;

    /** The port actually bound (useful when configured as 0). */
    int port();

    @Override
    void close();

    /**
     * The address {@code admin.listen} names, {@value AdminConfig#DEFAULT_LISTEN} when there is no admin
     * section or no {@code listen}: where a control plane binds.
     *
     * @throws IllegalArgumentException naming {@code admin.listen} when it is not host:port
     */
    static InetSocketAddress listenAddress(AdminConfig admin) {
        String listen = admin == null ? AdminConfig.DEFAULT_LISTEN : admin.listenOrDefault();
        try {
            return NodeAddress.parseListen(listen);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("admin.listen: " + e.getMessage(), e);
        }
    }
}
