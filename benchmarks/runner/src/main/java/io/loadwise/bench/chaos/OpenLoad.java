package io.loadwise.bench.chaos;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A steady, open-loop stream of {@code GET /work} through the dispatcher: one request every
 * {@code 1/rate} s whatever the answers take, as independent clients behave, over HTTP/1.1 keep-alive
 * connections of the JDK client (connect timeout 5 s). Every request becomes an {@link Outcome}; a failure keeps
 * its cause. Request N is {@code GET /work?i=N}, so that the dispatcher's access log says which node it went to.
 * The client gives each request {@value #TIMEOUT_SECONDS} s.
 *
 * <p>By default every outcome is kept until {@link #stop()}; with a {@link Sink} (the hour-long soak) none is
 * kept: each goes to the sink as it completes, with its latency, and {@link #drain} waits for the last ones.
 */
final class OpenLoad implements AutoCloseable {

    static final int TIMEOUT_SECONDS = 10;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "chaos-load");
        t.setDaemon(true);
        return t;
    });
    private final ConcurrentLinkedQueue<CompletableFuture<Outcome>> pending = new ConcurrentLinkedQueue<>();
    private final String target;
    private final long origin;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong lastFailureStart = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong inFlight = new AtomicLong();
    private final Sink sink;

    /** Where a load with a sink sends each outcome, from the client's threads, as it completes. */
    interface Sink {
        void record(Outcome outcome, long latencyNanos);
    }

    OpenLoad(int port, int requestsPerSecond, long originNanos) {
        this(port, requestsPerSecond, originNanos, null);
    }

    OpenLoad(int port, int requestsPerSecond, long originNanos, Sink sink) {
        this.target = "http://127.0.0.1:" + port + "/work?i=";
        this.origin = originNanos;
        this.sink = sink;
        ticker.scheduleAtFixedRate(this::fire, 0, 1_000_000L / requestsPerSecond, TimeUnit.MICROSECONDS);
    }

    private void fire() {
        long start = System.nanoTime() - origin;
        long id = sent.incrementAndGet();
        HttpRequest request = HttpRequest.newBuilder(URI.create(target + id)).timeout(Duration.ofSeconds(TIMEOUT_SECONDS))
                .GET().build();
        if (sink != null) {
            inFlight.incrementAndGet();
        }
        CompletableFuture<Outcome> f = client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).handle((r, e) -> {
            Outcome o = e != null ? Outcome.failed(id, start, cause(e)) : Outcome.answered(id, start, r.statusCode(), r.body());
            if (!o.ok()) {
                lastFailureStart.accumulateAndGet(start, Math::max);
            }
            if (sink != null) {
                sink.record(o, System.nanoTime() - origin - start);
                inFlight.decrementAndGet();
            }
            return o;
        });
        if (sink == null) {
            pending.add(f);
        }
    }

    /** Stops sending and waits until every request sent has gone to the sink, at most the client timeout and 2 s. */
    void drain() throws InterruptedException {
        ticker.shutdownNow();
        ticker.awaitTermination(5, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + (TIMEOUT_SECONDS + 2) * 1_000_000_000L;
        while (inFlight.get() > 0 && System.nanoTime() - deadline < 0) {
            Thread.sleep(50);
        }
    }

    /** When the latest failure known so far was sent (ns since the load began), {@link Long#MIN_VALUE} before any. */
    long lastFailureStart() {
        return lastFailureStart.get();
    }

    /** A failure without a status, named by what the client saw. */
    static String cause(Throwable e) {
        Throwable t = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (t instanceof HttpConnectTimeoutException) {
            return "client connect timeout";
        }
        if (t instanceof HttpTimeoutException) {
            return "client timeout";
        }
        if (t instanceof ConnectException) {
            return "connection refused";
        }
        String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
        if (message.contains("reset")) {
            return "connection reset";
        }
        if (t instanceof IOException && (message.contains("closed") || message.contains("eof"))) {
            return "connection closed";
        }
        return t.getClass().getSimpleName();
    }

    /** Stops sending, waits for every answer (at most the client timeout) and returns them by start time. */
    List<Outcome> stop() throws InterruptedException {
        ticker.shutdownNow();
        ticker.awaitTermination(5, TimeUnit.SECONDS);
        List<Outcome> all = new ArrayList<>();
        for (CompletableFuture<Outcome> f : pending) {
            all.add(f.join());
        }
        all.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
        return all;
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
