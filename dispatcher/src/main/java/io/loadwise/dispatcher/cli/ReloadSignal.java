package io.loadwise.dispatcher.cli;

import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.runtime.Dispatcher;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * {@code kill -HUP}: re-reads the configuration and applies it ({@link Dispatcher#reload()}). The signal
 * handler only starts a thread; the reload runs there so the JVM's signal thread never waits. An invalid
 * file is logged with the validator's messages by the dispatcher and changes nothing.
 *
 * <p>{@code loadwise run} installs the handler ({@link #install()}) before anything listens: until then the
 * JVM's own handler would take a SIGHUP as a request to exit (status 129), and a script that reloads as soon as
 * the port answers would kill the dispatcher it meant to reload. A SIGHUP that arrives before the dispatcher
 * has started is remembered, and the reload runs once it has ({@link #ready}): the file may have changed after
 * it was read.
 */
final class ReloadSignal implements SignalHandler {

    private static final Logger log = LoggerFactory.getLogger(ReloadSignal.class);

    private final AtomicBoolean pending = new AtomicBoolean();
    private volatile boolean ignored;
    private volatile Dispatcher dispatcher;
    /** Told when a reload begins and ends ({@code Type=notify} under systemd); set with the dispatcher. */
    private volatile SystemdNotify systemd = SystemdNotify.none();

    private ReloadSignal() {
    }

    /**
     * Takes over SIGHUP now, before there is a dispatcher to reload; where the platform has no SIGHUP
     * (Windows) it logs that and the handler never runs.
     */
    static ReloadSignal install() {
        ReloadSignal handler = new ReloadSignal();
        try {
            if (Signal.handle(new Signal("HUP"), handler) == SignalHandler.SIG_IGN) {
                // A signal ignored when the JVM started stays ignored: the JVM installs no handler for it.
                handler.ignored = true;
                log.warn("SIGHUP is ignored in this process (started under nohup, or by a shell that ignores it),"
                        + " so kill -HUP will not reload; reload with POST /api/reload, or start it without nohup"
                        + " (setsid, systemd)");
            }
        } catch (IllegalArgumentException e) {
            log.info("no SIGHUP on this platform; reload with POST /api/reload");
        }
        return handler;
    }

    /** Whether SIGHUP was ignored when this process started, so that no SIGHUP reaches the handler. */
    boolean ignored() {
        return ignored;
    }

    /** {@link #install()} and {@link #ready} at once, for a dispatcher already running. */
    static ReloadSignal install(Dispatcher dispatcher) {
        ReloadSignal handler = install();
        handler.ready(dispatcher);
        return handler;
    }

    /** From now on a SIGHUP reloads {@code dispatcher}; one that came before reloads it now. */
    void ready(Dispatcher dispatcher) {
        ready(dispatcher, SystemdNotify.none());
    }

    /** {@link #ready(Dispatcher)}, and each reload brackets itself with {@code RELOADING=1} and {@code READY=1}. */
    void ready(Dispatcher dispatcher, SystemdNotify systemd) {
        this.systemd = systemd;
        this.dispatcher = dispatcher;
        if (!ignored) {
            log.info("send SIGHUP to reload the configuration");
        }
        if (pending.getAndSet(false)) {
            log.info("SIGHUP arrived while starting: reloading now");
            reloadInBackground(dispatcher, systemd);
        }
    }

    @Override
    public void handle(Signal signal) {
        Dispatcher target = dispatcher;
        if (target == null) {
            pending.set(true);
            target = dispatcher; // ready() may have run between the read and the set: then it missed the flag
            if (target == null || !pending.getAndSet(false)) {
                return;
            }
        }
        reloadInBackground(target, systemd);
    }

    private static void reloadInBackground(Dispatcher dispatcher, SystemdNotify systemd) {
        Thread reload = new Thread(() -> reload(dispatcher, systemd), "loadwise-reload");
        reload.setDaemon(true);
        reload.start();
    }

    private static void reload(Dispatcher dispatcher, SystemdNotify systemd) {
        log.info("SIGHUP: reloading the configuration");
        systemd.reloading();
        try {
            dispatcher.reload();
        } catch (ConfigValidationException e) {
            // Logged by the dispatcher with every message; nothing changed.
        } catch (RuntimeException e) {
            log.error("SIGHUP: the reload failed: {}", e.getMessage(), e);
        } finally {
            systemd.ready(); // the old configuration, or the new one, serves: systemd must not wait on a reload
        }
    }
}
