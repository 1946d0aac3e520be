package io.loadwise.dispatcher.store;

import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.LoadwiseConfig;

/**
 * Where the configuration in force lives: the file ({@link FileConfigSource}, the default) or etcd, shared by
 * every replica ({@link EtcdConfigSource}). The dispatcher reads it at start and on reload, writes every change
 * made through the API to it before applying the change, and, for a shared store, applies what other
 * replicas write.
 */
public interface ConfigSource extends AutoCloseable {

    /** The whole configuration as the source holds it now; parsed, not yet validated. */
    LoadwiseConfig read() throws ConfigValidationException;

    /**
     * Persists {@code next}, a validated change of {@code previous} (the configuration in force).
     *
     * @throws io.loadwise.dispatcher.control.ConfigConflictException when a shared store holds a newer version
     *     of something {@code next} changes
     * @throws io.loadwise.dispatcher.control.ConfigUnavailableException when the store cannot be reached
     * @throws ConfigValidationException when the file cannot be written
     */
    void write(LoadwiseConfig previous, LoadwiseConfig next) throws ConfigValidationException;

    /**
     * Starts passing every configuration written elsewhere (by another replica, by {@code config push}) to
     * {@code changes}, from a thread of the source's own. A source without other writers (the file) never
     * calls it.
     */
    default void watch(Applier changes) {
    }

    /** Applies a configuration read from the source; throws when it is invalid (then nothing changed). */
    @FunctionalInterface
    interface Applier {
        void apply(LoadwiseConfig next) throws ConfigValidationException;
    }

    /** For log lines and messages: the file's path, or the etcd endpoints and prefix. */
    String describe();

    @Override
    default void close() {
    }
}
