package io.loadwise.console;

import io.loadwise.dispatcher.cluster.NodeAddress;
import io.loadwise.dispatcher.config.AdminConfig;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ControlPlane;
import io.loadwise.console.store.MetricsRecorder;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * The admin side of the dispatcher process: the REST API on embedded Tomcat, bound to
 * {@code admin.listen} (loopback by default), and the metric stores under {@code <admin.dataDir>/rrd}. Found by the dispatcher through {@link java.util.ServiceLoader}.
 */
public final class ConsoleControlPlane implements ControlPlane {

    private AdminServer server;
    private MetricsRecorder recorder;

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
        String dataDir = admin == null ? new AdminConfig(null, null, null).dataDirOrDefault() : admin.dataDirOrDefault();
        recorder = MetricsRecorder.start(control, Path.of(dataDir).resolve("rrd"));
        try {
            server = AdminServer.start(address, control, token, recorder.stores());
        } catch (Exception e) {
            recorder.close();
            recorder = null;
            throw e;
        }
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
        if (recorder != null) {
            recorder.close();
            recorder = null;
        }
    }
}
