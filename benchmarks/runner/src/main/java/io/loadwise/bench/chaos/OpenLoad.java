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

/**
 * A steady, open-loop stream of {@code GET /work} through the dispatcher: one request every
 * {@code 1/rate} s whatever the answers take, as independent clients behave, over HTTP/1.1 keep-alive
 * connections of the JDK client. Every request becomes an {@link Outcome}; a failure keeps its cause.
 * The client gives each request {@value #TIMEOUT_SECONDS} s.
 */
final class OpenLoad implements AutoCloseable {

    static final int TIMEOUT_SECONDS = 10;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3)).build();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "chaos-load");
        t.setDaemon(true);
        return t;
    });
    private final ConcurrentLinkedQueue<CompletableFuture<Outcome>> pending = new ConcurrentLinkedQueue<>();
    private final HttpRequest request;
    private final long origin;

    OpenLoad(int port, int requestsPerSecond, long originNanos) {
        this.request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/work"))
                .timeout(Duration.ofSeconds(TIMEOUT_SECONDS)).GET().build();
        this.origin = originNanos;
        ticker.scheduleAtFixedRate(this::fire, 0, 1_000_000L / requestsPerSecond, TimeUnit.MICROSECONDS);
    }

    private void fire() {
        long start = System.nanoTime() - origin;
        pending.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .handle((r, e) -> e != null ? Outcome.failed(start, cause(e)) : Outcome.answered(start, r.statusCode(), r.body())));
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
