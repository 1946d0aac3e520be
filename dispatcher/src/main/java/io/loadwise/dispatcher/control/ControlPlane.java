package io.loadwise.dispatcher.control;

import io.loadwise.dispatcher.config.AdminConfig;

/**
 * The admin side of the process (REST API, console), found through {@link java.util.ServiceLoader} so the
 * dispatcher module does not depend on it. {@code admin-console} provides the implementation; without
 * it on the class path the dispatcher runs headless and logs that it does.
 */
public interface ControlPlane extends AutoCloseable {

    /**
     * Starts serving. Called once, after the clusters are listening.
     *
     * @param token the effective bearer token ({@code LOADWISE_ADMIN_TOKEN} or {@code admin.token})
     */
    void start(ClusterControl control, AdminConfig admin, String token) throws Exception;

    /** The port actually bound (useful when configured as 0). */
    int port();

    @Override
    void close();
}
