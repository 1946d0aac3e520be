package io.loadwise.console.replicas;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.loadwise.dispatcher.control.ReplicaInfo;
import java.io.IOException;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Fetches other replicas' {@link LiveFigures} from their admin API ({@code GET <adminUrl>/api/figures}), or
 * another answer of theirs such as a series ({@link PeerSeries}), all at once, authenticated with this
 * replica's bearer token (replicas of one site share it). Every fetch is bounded: a connect timeout, one
 * deadline for the whole fan-out, a cap on the answer's size and on the number of replicas asked, so a dead or
 * stalled replica shows as unreachable and never holds up a page.
 * Redirects are not followed: the token goes only to the address the replica registered.
 */
public final class PeerFigures implements AutoCloseable {

    /** Replicas asked per fan-out; more than this many are listed as not asked. */
    public static final int MAX_PEERS = 32;
    /** A figures answer is a few hundred bytes per node; anything past this is not a replica's answer. */
    static final int MAX_ANSWER_BYTES = 1 << 20;

    private static final ObjectMapper JSON = JsonMapper.builder()
            // A newer replica may report more figures than this one knows: they are ignored, not an error.
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final String token;
    private final Duration connectTimeout;
    private final Duration deadline;
    private final ExecutorService executor;
    private final HttpClient http;

    /**
     * @param connectTimeout per replica
     * @param deadline for the whole fan-out, answers included
     */
    public PeerFigures(String token, Duration connectTimeout, Duration deadline) {
        this.token = token;
        this.connectTimeout = connectTimeout;
        this.deadline = deadline;
        this.executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "loadwise-peer-figures");
            t.setDaemon(true);
            // Not the web application's loader it would inherit when started from a request.
            t.setContextClassLoader(PeerFigures.class.getClassLoader());
            return t;
        });
        this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1).executor(executor).build();
    }

    /** 1 s to connect, 2 s for everything: what the console and the API use. */
    public static PeerFigures withDefaults(String token) {
        return new PeerFigures(token, Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    /** What one replica answered: its figures, or why there are none. */
    public record Answer(LiveFigures figures, String problem) {

        static Answer failed(String problem) {
            return new Answer(null, problem);
        }
    }

    /** Asks every replica at once; the answers come back in the same order, within the deadline. */
    public List<Answer> fetch(List<ReplicaInfo> replicas) {
        return fetch(replicas, "/api/figures", MAX_ANSWER_BYTES, PeerFigures::read, Answer::failed);
    }

    /**
     * Asks every replica at once for {@code <adminUrl><path>}, each answer read up to {@code maxBytes}; the
     * answers come back in the same order, within the deadline.
     *
     * @param read turns a response into an answer (it sees every status)
     * @param failed makes the answer of a replica that could not be asked, with why
     */
    <A> List<A> fetch(List<ReplicaInfo> replicas, String path, int maxBytes, Function<HttpResponse<byte[]>, A> read,
            Function<String, A> failed) {
        long end = System.nanoTime() + deadline.toNanos();
        List<CompletableFuture<A>> pending = new ArrayList<>();
        for (int i = 0; i < replicas.size(); i++) {
            pending.add(i < MAX_PEERS ? ask(replicas.get(i), path, maxBytes, read, failed)
                    : CompletableFuture.completedFuture(failed.apply("not asked: more than " + MAX_PEERS + " replicas")));
        }
        List<A> answers = new ArrayList<>();
        for (CompletableFuture<A> future : pending) {
            answers.add(await(future, end, maxBytes, failed));
        }
        return answers;
    }

    private <A> A await(CompletableFuture<A> future, long end, int maxBytes, Function<String, A> failed) {
        try {
            return future.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            return failed.apply("no answer within " + deadline.toMillis() + " ms");
        } catch (ExecutionException e) {
            return failed.apply(describe(e.getCause(), maxBytes));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed.apply("interrupted");
        }
    }

    private <A> CompletableFuture<A> ask(ReplicaInfo replica, String path, int maxBytes,
            Function<HttpResponse<byte[]>, A> read, Function<String, A> failed) {
        URI uri;
        try {
            uri = URI.create(baseUri(replica.adminUrl()) + path);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(failed.apply(e.getMessage()));
        }
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(deadline).header("Authorization", "Bearer " + token)
                .header("Accept", "application/json").GET().build();
        return http.sendAsync(request, info -> LimitedBody.of(maxBytes)).thenApply(read);
    }

    private static Answer read(HttpResponse<byte[]> response) {
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            return Answer.failed(refusedToken(status));
        }
        if (status == 404) {
            return Answer.failed("its admin API has no /api/figures (HTTP 404): an older Loadwise version");
        }
        if (status != 200) {
            return Answer.failed("its admin API answered HTTP " + status);
        }
        try {
            return new Answer(JSON.readValue(response.body(), LiveFigures.class), null);
        } catch (IOException e) {
            return Answer.failed("its answer is not a figures document");
        }
    }

    /** Why a replica answered 401 or 403. */
    static String refusedToken(int status) {
        return "its admin API refused this replica's token (HTTP " + status + "): replicas must share the admin token";
    }

    /** The admin URL without a trailing slash, for an http or https admin URL with a host only. */
    static String baseUri(String adminUrl) {
        if (adminUrl == null || adminUrl.isBlank()) {
            throw new IllegalArgumentException("it registered no admin URL");
        }
        URI base;
        try {
            base = URI.create(adminUrl.endsWith("/") ? adminUrl.substring(0, adminUrl.length() - 1) : adminUrl);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("its admin URL is not a URL");
        }
        String scheme = base.getScheme() == null ? "" : base.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || base.getHost() == null
                || base.getRawUserInfo() != null || base.getRawQuery() != null || base.getRawFragment() != null) {
            throw new IllegalArgumentException("its admin URL is not an http(s)://host:port URL");
        }
        return base.toString();
    }

    private String describe(Throwable e, int maxBytes) {
        if (e instanceof HttpConnectTimeoutException) {
            return "no connection within " + connectTimeout.toMillis() + " ms";
        }
        if (e instanceof HttpTimeoutException) {
            return "no answer within " + deadline.toMillis() + " ms";
        }
        if (e instanceof LimitedBody.TooLargeException) {
            return "its answer is larger than " + maxBytes + " bytes";
        }
        if (e instanceof java.net.ConnectException) {
            return "connection refused";
        }
        if (e instanceof IOException) {
            return "connection failed (" + e.getClass().getSimpleName() + ")";
        }
        return "failed (" + e.getClass().getSimpleName() + ")";
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
