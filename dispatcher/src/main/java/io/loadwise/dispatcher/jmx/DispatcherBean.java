package io.loadwise.dispatcher.jmx;

import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.control.ClusterControl;
import java.util.function.IntSupplier;

/** {@link DispatcherMXBean} over the control plane. */
final class DispatcherBean implements DispatcherMXBean {

    private final ClusterControl control;
    private final String version;
    private final IntSupplier inFlight;
    /** Registers and removes the cluster and node beans after a reload, rather than on the next tick. */
    private final Runnable afterReload;

    DispatcherBean(ClusterControl control, String version, IntSupplier inFlight, Runnable afterReload) {
        this.control = control;
        this.version = version;
        this.inFlight = inFlight;
        this.afterReload = afterReload;
    }

    @Override
    public String getVersion() {
        return version;
    }

    @Override
    public int getClusterCount() {
        return control.clusterStatuses().size();
    }

    @Override
    public int getInFlight() {
        return inFlight.getAsInt();
    }

    @Override
    public long getAccessLogDropped() {
        return control.accessLogDropped();
    }

    @Override
    public String reload() {
        try {
            String summary = control.reload().summary();
            afterReload.run();
            return summary;
        } catch (ConfigValidationException e) {
            throw new IllegalArgumentException("nothing changed: " + String.join("; ", e.errors()));
        }
    }
}
