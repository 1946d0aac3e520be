package io.loadwise.dispatcher.faults;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A steady stream of {@code GET}s through the proxy, one every {@code periodMicros} whatever the answers
 * take (an open loop, as real clients behave), each recorded with its start time, its status (-1 for a
 * failure without a status) and the node that answered (the body).
 */
final class SteadyLoad implements AutoCloseable {

    /** One request: when it started (ns since the load began), its status, and who answered. */
    record Outcome(long startNanos, int status, String node) {
        boolean ok() {
            return status == 200;
        }
    }

    /** HTTP/1.1: the suite measures one request per node exchange; the JDK client would otherwise upgrade to h2c. */
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3)).build();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    private final ConcurrentLinkedQueue<CompletableFuture<Outcome>> pending = new ConcurrentLinkedQueue<>();
    private final URI target;
    private final long origin = System.nanoTime();

    SteadyLoad(String proxyAddress, int requestsPerSecond) {
        this.target = URI.create("http://" + proxyAddress + "/work");
        long period = 1_000_000L / requestsPerSecond;
        ticker.scheduleAtFixedRate(this::fire, 0, period, TimeUnit.MICROSECONDS);
    }

    /** Nanoseconds since the load began. */
    long now() {
        return System.nanoTime() - origin;
    }

    private void fire() {
        long start = now();
        pending.add(client.sendAsync(HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofString())
                .handle((r, e) -> e != null ? new Outcome(start, -1, null) : new Outcome(start, r.statusCode(), r.body())));
    }

    /** Stops sending and waits for every answer. */
    List<Outcome> stop() {
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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

    static long failed(List<Outcome> outcomes, long fromNanos, long toNanos) {
        return outcomes.stream().filter(o -> o.startNanos() >= fromNanos && o.startNanos() < toNanos && !o.ok()).count();
    }

    /** The failures, as "status@ms since {@code originNanos}", for assertion messages. */
    static String describeFailures(List<Outcome> outcomes, long originNanos) {
        StringBuilder out = new StringBuilder();
        for (Outcome o : outcomes) {
            if (!o.ok()) {
                out.append(o.status()).append('@').append((o.startNanos() - originNanos) / 1_000_000L).append("ms ");
            }
        }
        return out.toString().trim();
    }

    /** Share of the requests started in [from, to) that node {@code name} answered. */
    static double share(List<Outcome> outcomes, String name, long fromNanos, long toNanos) {
        long total = 0;
        long hits = 0;
        for (Outcome o : outcomes) {
            if (o.startNanos() >= fromNanos && o.startNanos() < toNanos && o.ok()) {
                total++;
                hits += name.equals(o.node()) ? 1 : 0;
            }
        }
        return total == 0 ? 0 : hits / (double) total;
    }
}
