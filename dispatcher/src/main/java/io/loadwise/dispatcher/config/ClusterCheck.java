package io.loadwise.dispatcher.config;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * A check of one cluster that needs more than the configuration (the TLS check loads the certificate files)
 * and so lives in a package above {@code config}. {@link ConfigValidator} runs every check found with
 * {@link ServiceLoader} ({@code META-INF/services/io.loadwise.dispatcher.config.ClusterCheck}): the
 * dependency points down, from the package that owns the check to this interface.
 */
@FunctionalInterface
public interface ClusterCheck {

    /** Adds every problem of {@code cluster} to {@code errors}, each message starting with a path under {@code at}. */
    void check(String at, ClusterConfig cluster, List<String> errors);

    /** The same for one of {@code listeners[]} (its TLS and HTTP/2); nothing by default. */
    default void checkListener(String at, ListenerConfig listener, List<String> errors) {
    }

    /** The checks on the class path, found once. */
    static List<ClusterCheck> installed() {
        return Installed.CHECKS;
    }

    /** Holder: the service lookup runs once, at first use. */
    final class Installed {
        private static final List<ClusterCheck> CHECKS = load();

        private Installed() {
        }

        private static List<ClusterCheck> load() {
            List<ClusterCheck> found = new ArrayList<>();
            ServiceLoader.load(ClusterCheck.class, ClusterCheck.class.getClassLoader()).forEach(found::add);
            return List.copyOf(found);
        }
    }
}
