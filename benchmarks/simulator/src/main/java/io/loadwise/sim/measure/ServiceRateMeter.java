package io.loadwise.sim.measure;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Calibrates μ of one node with a short closed-loop load, the way seed 000 used {@code ab}: c workers
 * each send a request, wait for the answer and send the next. Throughput X(c) rises with c until the
 * node is saturated and then stays flat (seed 000 Fig. 2.11); at saturation X = μ.
 *
 * <p>The meter runs steps at c = 1, 2, 4, … up to a maximum. Each step has a warm-up (a fifth of the
 * step, not counted) and a measured window; X(c) = successful completions in the window / window
 * length. It stops as soon as doubling c raises X by less than {@code saturationGain} (default 5 %),
 * and reports μ = the highest X seen. If the last step still gained, the node was not saturated and
 * the estimate is a lower bound ({@link Measurement#saturated()} false).
 */
public final class ServiceRateMeter {

    /** One closed-loop step. */
    public record Step(int concurrency, long completed, long failed, double throughput, double meanResponseMillis) {
    }

    /**
     * @param serviceRate μ estimate, requests/s
     * @param saturated whether throughput stopped growing before the maximum concurrency
     */
    public record Measurement(double serviceRate, boolean saturated, List<Step> steps) {
    }

    private final HttpClient client;
    private final Duration stepDuration;
    private final int maxConcurrency;
    private final double saturationGain;
    private final Duration requestTimeout;

    public ServiceRateMeter(Duration stepDuration, int maxConcurrency, double saturationGain, Duration requestTimeout) {
        if (stepDuration.toMillis() < 50 || maxConcurrency < 1 || !(saturationGain > 0)) {
            throw new IllegalArgumentException("step duration >= 50 ms, max concurrency >= 1 and gain > 0 required");
        }
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(requestTimeout).build();
        this.stepDuration = stepDuration;
        this.maxConcurrency = maxConcurrency;
        this.saturationGain = saturationGain;
        this.requestTimeout = requestTimeout;
    }

    public Measurement measure(URI uri) throws IOException, InterruptedException {
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
            throw new IllegalArgumentException("--measure " + uri + ": only http:// and https:// URLs can be measured");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("--measure " + uri + ": the URL has no host");
        }
        probe(uri);
        List<Step> steps = new ArrayList<>();
        double best = 0;
        boolean saturated = false;
        for (int c = 1; c <= maxConcurrency; c *= 2) {
            Step step = runStep(uri, c);
            steps.add(step);
            if (step.completed() == 0) {
                throw new IOException("no request to " + uri + " succeeded at concurrency " + c
                        + " (" + step.failed() + " failed)");
            }
            double previous = best;
            best = Math.max(best, step.throughput());
            if (steps.size() > 1 && step.throughput() < previous * (1 + saturationGain)) {
                saturated = true;
                break;
            }
        }
        return new Measurement(best, saturated, steps);
    }

    /** One request first: it warms the client up and fails fast, with the reason, on a dead URL. */
    private void probe(URI uri) throws IOException, InterruptedException {
        HttpResponse<Void> response;
        try {
            response = client.send(HttpRequest.newBuilder(uri).timeout(requestTimeout).GET().build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            // HttpClient's exceptions often carry no message (a refused connection, say): name the cause
            throw new IOException("cannot get " + uri + ": " + e, e);
        }
        if (response.statusCode() >= 400) {
            throw new IOException(uri + " answers HTTP status " + response.statusCode() + "; measure a URL that succeeds");
        }
    }

    private Step runStep(URI uri, int concurrency) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(requestTimeout).GET().build();
        long start = System.nanoTime();
        long windowStart = start + stepDuration.toNanos() / 5;
        long windowEnd = windowStart + stepDuration.toNanos();
        AtomicLong completed = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong responseNanos = new AtomicLong();
        AtomicReference<Exception> firstError = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(concurrency);
        for (int w = 0; w < concurrency; w++) {
            Thread worker = new Thread(() -> {
                try {
                    while (System.nanoTime() < windowEnd) {
                        long sent = System.nanoTime();
                        boolean ok;
                        try {
                            HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
                            ok = response.statusCode() < 400;
                            if (!ok) {
                                firstError.compareAndSet(null, new IOException("HTTP status " + response.statusCode()));
                            }
                        } catch (IOException e) {
                            ok = false;
                            firstError.compareAndSet(null, e);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                        long received = System.nanoTime();
                        if (received >= windowStart && received < windowEnd) {
                            (ok ? completed : failed).incrementAndGet();
                            if (ok) {
                                responseNanos.addAndGet(received - sent);
                            }
                        }
                    }
                } finally {
                    done.countDown();
                }
            }, "loadwise-measure-" + w);
            worker.setDaemon(true);
            worker.start();
        }
        done.await();
        long ok = completed.get();
        if (ok == 0 && firstError.get() != null) {
            throw new IOException("requests to " + uri + " fail: " + firstError.get().getMessage(), firstError.get());
        }
        double seconds = stepDuration.toNanos() / 1e9;
        return new Step(concurrency, ok, failed.get(), ok / seconds,
                ok == 0 ? Double.NaN : responseNanos.get() / 1e6 / ok);
    }
}
