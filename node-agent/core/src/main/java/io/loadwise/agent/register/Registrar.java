package io.loadwise.agent.register;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Registers the node with the dispatcher at start-up and heartbeats with the same call every
 * {@code heartbeatMillis} on its own daemon thread; {@link #leave} deregisters (the dispatcher drains the
 * node first) and then waits for requests already on their way, {@link #rejoin} registers again (a server
 * that was suspended and resumed), {@link #close()} leaves for good. A refused registration is logged with
 * the dispatcher's reason and tried again at the next heartbeat: the application keeps running whatever the
 * dispatcher says.
 *
 * <p>Registering and leaving exclude each other (one lock), so a heartbeat already on its way can never
 * land after the deregistration and put a stopping node back into selection.
 */
public final class Registrar implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Registrar.class.getName());
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private volatile RegistrationSettings settings;
    private final ServerFacts server;
    private final HttpClient http;
    private final ScheduledExecutorService thread;
    private final AtomicInteger successes = new AtomicInteger();
    private final CountDownLatch firstRegistration = new CountDownLatch(1);
    private volatile int lastStatus;
    /** The application answers: the first registration waits for it, so no request arrives before it serves. */
    private volatile boolean serving;
    private long lastAttemptNanos;
    private volatile String lastProblem;
    /** Guards {@link #left}: a registration call and a deregistration never overlap. */
    private final Object membership = new Object();
    /** Deregistered (or leaving): no heartbeat is sent until {@link #rejoin}. */
    private volatile boolean left;

    private Registrar(RegistrationSettings settings, ServerFacts server) {
        this.settings = settings;
        this.server = server;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
                .followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadwise-agent-registrar");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Registers as soon as the application answers on the node's address (its agent endpoint gives anything but
     * 404 or 503: the server's connector is up and the application started), then every {@code heartbeatMillis}.
     */
    public static Registrar start(RegistrationSettings settings, ServerFacts server) {
        Registrar registrar = new Registrar(settings, server);
        registrar.thread.scheduleWithFixedDelay(registrar::tick, 0, PROBE_MILLIS, TimeUnit.MILLISECONDS);
        return registrar;
    }

    private static final long PROBE_MILLIS = 250;

    private void tick() {
        if (left) {
            return;
        }
        if (!settings.resolved()) {
            settings = settings.resolve(server); // the server's connector starts after the web application
            if (!settings.resolved()) {
                return;
            }
        }
        if (!serving) {
            serving = probe();
            if (!serving) {
                return;
            }
        } else if (System.nanoTime() - lastAttemptNanos < settings.heartbeatMillis() * 1_000_000L) {
            return;
        }
        synchronized (membership) {
            if (left) {
                return;
            }
            lastAttemptNanos = System.nanoTime();
            register();
        }
    }

    private boolean probe() {
        String context = settings.contexts().get(0).equals("/") ? "" : settings.contexts().get(0);
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + settings.address() + context
                    + "/loadwise-agent/metrics")).timeout(Duration.ofSeconds(2)).GET().build();
            int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            return status != 404 && status != 503;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public RegistrationSettings settings() {
        return settings;
    }

    /** Registration calls the dispatcher accepted so far. */
    public int successes() {
        return successes.get();
    }

    /** Waits until the dispatcher accepted the first registration; {@code false} when the time ran out. */
    public boolean awaitRegistered(Duration timeout) throws InterruptedException {
        return firstRegistration.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The status of the latest call (0 when it got none) and its problem, for logs and tests. */
    public String lastProblem() {
        return lastProblem == null ? null : lastStatus + " " + lastProblem;
    }

    private URI registrations() {
        return URI.create(settings.admin() + "/api/clusters/" + segment(settings.cluster()) + "/registrations");
    }

    private static String segment(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private void register() {
        HttpRequest request = HttpRequest.newBuilder(registrations()).timeout(TIMEOUT)
                .header("Authorization", "Bearer " + settings.token()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(settings.json())).build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            lastStatus = response.statusCode();
            if (response.statusCode() == 200 || response.statusCode() == 201) {
                if (successes.getAndIncrement() == 0 || lastProblem != null) {
                    LOG.log(Level.INFO, "Loadwise agent: node " + settings.name() + " (" + settings.address()
                            + ", contexts " + settings.contexts() + ") registered with cluster " + settings.cluster()
                            + " at " + settings.admin());
                }
                lastProblem = null;
                firstRegistration.countDown();
            } else {
                problem("refused: " + cut(response.body()));
            }
        } catch (IOException e) {
            lastStatus = 0;
            problem("dispatcher unreachable: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void problem(String text) {
        if (!text.equals(lastProblem)) {
            LOG.log(Level.WARNING, "Loadwise agent: registration of " + settings.name() + " with cluster "
                    + settings.cluster() + " " + text + "; trying again every " + settings.heartbeatMillis() + " ms");
        }
        lastProblem = text;
    }

    private static String cut(String body) {
        return body == null ? "" : body.length() > 300 ? body.substring(0, 300) + "..." : body;
    }

    /**
     * Deregisters at once (the dispatcher selects the node for nothing new and drains it) and stops
     * heartbeating, then waits up to {@code drainWaitMillis} for requests the dispatcher sent just before, which
     * may still be on their way to the server. The calls time out after {@code timeout}: a server that stops
     * must not hang on an unreachable dispatcher. Does nothing when already left; a concurrent caller waits
     * until the first one has finished, so neither stops the application while requests are still arriving.
     *
     * @param why what started it, for the log ("the JVM shuts down")
     * @return whether the dispatcher accepted the deregistration
     */
    public boolean leave(Duration timeout, long drainWaitMillis, String why) {
        synchronized (membership) {
            if (left) {
                return false;
            }
            left = true;
            if (successes.get() == 0) {
                return false; // never registered: nothing to take back
            }
            HttpRequest request = HttpRequest.newBuilder(URI.create(registrations() + "/" + segment(settings.name())))
                    .timeout(timeout).header("Authorization", "Bearer " + settings.token()).DELETE().build();
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 202) {
                    LOG.log(Level.INFO, "Loadwise agent: node " + settings.name() + " deregistered from cluster "
                            + settings.cluster() + " (" + why + "); the dispatcher drains it");
                    // The dispatcher sends it nothing new from now on; requests it sent just before are on their way.
                    Thread.sleep(drainWaitMillis);
                    return true;
                }
                LOG.log(Level.WARNING, "Loadwise agent: deregistration of " + settings.name() + " refused: "
                        + response.statusCode() + " " + cut(response.body()));
            } catch (IOException e) {
                LOG.log(Level.WARNING, "Loadwise agent: could not deregister " + settings.name() + ": " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        }
    }

    /** Registers again at the next tick after {@link #leave} (the server resumed); no effect after close. */
    public void rejoin() {
        synchronized (membership) {
            if (left && !thread.isShutdown()) {
                left = false;
                lastAttemptNanos = 0;
                serving = false; // probe first: the application must answer before traffic comes back
                LOG.log(Level.INFO, "Loadwise agent: node " + settings.name() + " registers again");
            }
        }
    }

    /** Whether the node has left (or is leaving) the cluster. */
    public boolean hasLeft() {
        synchronized (membership) {
            return left;
        }
    }

    /**
     * Deregisters (unless already done), waits {@code deregisterWaitMillis} for requests already on their way,
     * and stops heartbeating for good. Idempotent.
     */
    @Override
    public void close() {
        leave(TIMEOUT, settings.deregisterWaitMillis(), "the application stops");
        thread.shutdownNow();
    }
}
