package io.loadwise.dispatcher.cli;

import io.loadwise.dispatcher.runtime.Dispatcher;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * What {@code loadwise run} does on SIGTERM (and Ctrl-C): stop accepting, let the requests in flight
 * finish for up to {@code shutdownGraceMs}, close what is left, and let the process exit 0. A second
 * signal while that runs exits at once with {@link #FORCED_EXIT} (128 + SIGTERM, what the shell reports
 * for a killed process).
 *
 * <p>The JVM's own reaction to SIGTERM (run the shutdown hooks, exit 143) is replaced through
 * {@code sun.misc.Signal}, the only way Java 17 has to handle a signal: it is in {@code jdk.unsupported},
 * which every JDK ships. The shutdown hook stays for any other way out (System.exit).
 */
final class GracefulShutdown {

    static final int FORCED_EXIT = 143;
    private static final long POLL_MILLIS = 20;
    private static final Logger log = LoggerFactory.getLogger(GracefulShutdown.class);

    private final RunCommand.Started started;
    private final long graceMillis;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);

    GracefulShutdown(RunCommand.Started started, long graceMillis) {
        this.started = started;
        this.graceMillis = graceMillis;
    }

    /** Takes over SIGTERM and SIGINT, and closes on any other exit through a shutdown hook. */
    void install() {
        Runtime.getRuntime().addShutdownHook(new Thread(this::closeNow, "loadwise-shutdown-hook"));
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), s -> onSignal("SIG" + name));
            } catch (IllegalArgumentException e) {
                // the JVM keeps the signal (-Xrs, or a platform without it): its shutdown hook closes at once
                log.warn("SIG{} cannot be handled here ({}); it stops the dispatcher without a grace", name,
                        e.getMessage());
            }
        }
    }

    private void onSignal(String name) {
        if (!stopping.compareAndSet(false, true)) {
            log.warn("{} again: exiting at once, requests in flight are cut off", name);
            Runtime.getRuntime().halt(FORCED_EXIT);
        }
        started.systemd().stopping();
        log.info("{}: shutting down; requests in flight get up to {} ms to finish (send it again to exit at once)",
                name, graceMillis);
        Thread drain = new Thread(this::drainAndClose, "loadwise-shutdown");
        drain.setDaemon(true);
        drain.start();
    }

    /** Waits until the shutdown is over. */
    void await() throws InterruptedException {
        stopped.await();
    }

    void drainAndClose() {
        Dispatcher dispatcher = started.dispatcher();
        dispatcher.stopAccepting();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
        int left = dispatcher.inFlight();
        while (left > 0 && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(POLL_MILLIS); // polling a counter the event loops keep; nothing to wake us instead
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            left = dispatcher.inFlight();
        }
        if (left > 0) {
            log.warn("grace of {} ms over: closing {} requests or tunnels still in flight", graceMillis, left);
        } else {
            log.info("every request in flight has finished");
        }
        closeNow();
    }

    private void closeNow() {
        if (closed.compareAndSet(false, true)) {
            if (!stopping.get()) {
                started.systemd().stopping(); // an exit other than SIGTERM/SIGINT
            }
            started.close();
            io.loadwise.dispatcher.logging.AccessLog.drain(2_000); // the last requests' lines reach the file
            log.info("stopped");
        }
        stopped.countDown();
    }
}
