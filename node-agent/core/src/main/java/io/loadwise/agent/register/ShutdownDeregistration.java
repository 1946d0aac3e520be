package io.loadwise.agent.register;

import java.time.Duration;

/**
 * A JVM shutdown hook that takes the node out of selection as soon as the server starts shutting down
 * (SIGTERM, {@code System.exit}), on every server. Shutdown hooks run concurrently, so this one deregisters
 * while the server's own hook is still stopping its connectors and applications, instead of waiting for the
 * servlet API's {@code contextDestroyed}, which comes only after the server stopped taking requests (WildFly
 * suspends first and answers 503 meanwhile, Liberty quiesces). Removed again when the application stops, so
 * a redeploy leaves no hook (and no class loader) behind.
 */
public final class ShutdownDeregistration {

    /** A dispatcher that does not answer within this must not hold the server's shutdown up. */
    static final Duration SHUTDOWN_CALL_TIMEOUT = Duration.ofSeconds(2);

    private final Thread hook;

    private ShutdownDeregistration(Thread hook) {
        this.hook = hook;
    }

    /** Installs the hook; {@code null} when the JVM is already shutting down. */
    public static ShutdownDeregistration install(Registrar registrar) {
        Thread hook = new Thread(() -> registrar.leave(SHUTDOWN_CALL_TIMEOUT,
                registrar.settings().deregisterWaitMillis(), "the JVM shuts down"), "loadwise-agent-shutdown-deregistration");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
            return new ShutdownDeregistration(hook);
        } catch (IllegalStateException e) {
            return null; // shutdown already in progress: contextDestroyed deregisters
        }
    }

    /** Takes the hook off again; harmless while the JVM shuts down (the hook has run or is running then). */
    public void remove() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutdown in progress: the hook is running or has run, nothing to take off
        }
    }
}
