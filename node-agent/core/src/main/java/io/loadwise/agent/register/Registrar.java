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
 * {@code heartbeatMillis} on its own daemon thread; {@link #close()} deregisters (the dispatcher drains the
 * node first) and then waits {@code deregisterWaitMillis} for requests already on their way. A refused
 * registration is logged with the dispatcher's reason and tried again at the next heartbeat: the application
 * keeps running whatever the dispatcher says.
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
        lastAttemptNanos = System.nanoTime();
        register();
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

    /** Stops heartbeating, deregisters, and waits for requests already on their way. Idempotent. */
    @Override
    public void close() {
        if (thread.isShutdown()) {
            return;
        }
        thread.shutdownNow();
        if (successes.get() == 0) {
            return; // never registered: nothing to take back
        }
        try {
            thread.awaitTermination(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            HttpRequest request = HttpRequest.newBuilder(URI.create(registrations() + "/" + segment(settings.name())))
                    .timeout(TIMEOUT).header("Authorization", "Bearer " + settings.token()).DELETE().build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 202) {
                LOG.log(Level.INFO, "Loadwise agent: node " + settings.name() + " deregistered from cluster "
                        + settings.cluster() + "; the dispatcher drains it");
                // The dispatcher sends it nothing new from now on; requests it sent just before are on their way.
                Thread.sleep(settings.deregisterWaitMillis());
            } else {
                LOG.log(Level.WARNING, "Loadwise agent: deregistration of " + settings.name() + " refused: "
                        + response.statusCode() + " " + cut(response.body()));
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Loadwise agent: could not deregister " + settings.name() + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
