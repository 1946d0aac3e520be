package io.loadwise.console;

import io.loadwise.console.auth.AdminPassword;
import io.loadwise.console.auth.LoginGuard;
import io.loadwise.console.auth.PasswordFile;
import io.loadwise.console.auth.PasswordHasher;
import io.loadwise.dispatcher.config.AdminConfig;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ControlPlane;
import io.loadwise.console.store.MetricsRecorder;
import io.loadwise.console.store.StoreLimits;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The admin side of the dispatcher process: the REST API and the web console on embedded Tomcat, bound to
 * {@code admin.listen} (loopback by default), and the metric stores under {@code <admin.dataDir>/rrd}
 * within {@code admin.metricsDiskBudgetMb} and {@code admin.metricsRetentionHours}.
 * Found by the dispatcher through {@link java.util.ServiceLoader}.
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
        InetSocketAddress address = ControlPlane.listenAddress(admin);
        AdminConfig settings = admin == null ? new AdminConfig(null, null, null) : admin;
        Path dataDir = Path.of(settings.dataDirOrDefault());
        AdminPassword password = new AdminPassword(PasswordFile.inDataDir(dataDir), new PasswordHasher());
        password.initialiseFrom(System.getenv());
        recorder = MetricsRecorder.start(control, dataDir.resolve("rrd"), StoreLimits.of(settings));
        try {
            server = AdminServer.start(address, control, token, settings.registrationToken(), recorder.stores(),
                    new LoginGuard(password, Clock.systemUTC()));
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
