package io.loadwise.dispatcher.cli;

import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.runtime.Dispatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * {@code kill -HUP}: re-reads the configuration and applies it ({@link Dispatcher#reload()}). The signal
 * handler only starts a thread; the reload runs there so the JVM's signal thread never waits. An invalid
 * file is logged with the validator's messages by the dispatcher and changes nothing.
 */
final class ReloadSignal {

    private static final Logger log = LoggerFactory.getLogger(ReloadSignal.class);

    private ReloadSignal() {
    }

    /** Installs the handler; where the platform has no SIGHUP (Windows) it logs that and does nothing. */
    static void install(Dispatcher dispatcher) {
        try {
            Signal.handle(new Signal("HUP"), signal -> {
                Thread reload = new Thread(() -> reload(dispatcher), "loadwise-reload");
                reload.setDaemon(true);
                reload.start();
            });
            log.info("send SIGHUP to reload the configuration");
        } catch (IllegalArgumentException e) {
            log.info("no SIGHUP on this platform; reload with POST /api/reload");
        }
    }

    private static void reload(Dispatcher dispatcher) {
        log.info("SIGHUP: reloading the configuration");
        try {
            dispatcher.reload();
        } catch (ConfigValidationException e) {
            // Logged by the dispatcher with every message; nothing changed.
        } catch (RuntimeException e) {
            log.error("SIGHUP: the reload failed: {}", e.getMessage(), e);
        }
    }
}
