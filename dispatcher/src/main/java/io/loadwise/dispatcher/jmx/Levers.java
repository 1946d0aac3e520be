package io.loadwise.dispatcher.jmx;

import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.NodeStatus;

/**
 * What the MBeans share: finding their cluster or node in the current state (it may have gone since the bean
 * was registered), and turning the control plane's refusals into the {@link IllegalArgumentException} a JMX
 * client shows as the operation's error, with the validator's message and nothing else.
 */
final class Levers {

    /** A change the control plane makes; it may refuse it. */
    @FunctionalInterface
    interface Change {
        void apply() throws ConfigValidationException;
    }

    private Levers() {
    }

    static ClusterStatus cluster(ClusterControl control, String cluster) {
        ClusterStatus status = control.clusterStatus(cluster);
        if (status == null) {
            throw new IllegalStateException("cluster '" + cluster + "' no longer exists");
        }
        return status;
    }

    static NodeStatus node(ClusterControl control, String cluster, String node) {
        NodeStatus status = cluster(control, cluster).node(node);
        if (status == null) {
            throw new IllegalStateException("cluster '" + cluster + "' has no node named '" + node + "'");
        }
        return status;
    }

    static void apply(Change change) {
        try {
            change.apply();
        } catch (ConfigValidationException e) {
            throw new IllegalArgumentException(String.join("; ", e.errors()));
        }
    }
}
