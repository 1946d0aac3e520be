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

/**
 * Fetches other replicas' {@link LiveFigures} from their admin API ({@code GET <adminUrl>/api/figures}), all
 * at once, authenticated with this replica's bearer token (replicas of one site share it). Every fetch is
 * bounded: a connect timeout, one deadline for the whole fan-out, a cap on the answer's size and on the
 * number of replicas asked, so a dead or stalled replica shows as unreachable and never holds up a page.
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
        long end = System.nanoTime() + deadline.toNanos();
        List<CompletableFuture<Answer>> pending = new ArrayList<>();
        for (int i = 0; i < replicas.size(); i++) {
            pending.add(i < MAX_PEERS ? ask(replicas.get(i))
                    : CompletableFuture.completedFuture(Answer.failed("not asked: more than " + MAX_PEERS + " replicas")));
        }
        List<Answer> answers = new ArrayList<>();
        for (CompletableFuture<Answer> future : pending) {
            answers.add(await(future, end));
        }
        return answers;
    }

    private Answer await(CompletableFuture<Answer> future, long end) {
        try {
            return future.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            return Answer.failed("no answer within " + deadline.toMillis() + " ms");
        } catch (ExecutionException e) {
            return Answer.failed(describe(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answer.failed("interrupted");
        }
    }

    private CompletableFuture<Answer> ask(ReplicaInfo replica) {
        URI uri;
        try {
            uri = figuresUri(replica.adminUrl());
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(Answer.failed(e.getMessage()));
        }
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(deadline).header("Authorization", "Bearer " + token)
                .header("Accept", "application/json").GET().build();
        return http.sendAsync(request, info -> LimitedBody.of(MAX_ANSWER_BYTES))
                .thenApply(PeerFigures::read);
    }

    private static Answer read(HttpResponse<byte[]> response) {
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            return Answer.failed("its admin API refused this replica's token (HTTP " + status
                    + "): replicas must share the admin token");
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

    /** {@code <adminUrl>/api/figures}, for an http or https admin URL with a host only. */
    static URI figuresUri(String adminUrl) {
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
        return URI.create(base + "/api/figures");
    }

    private String describe(Throwable e) {
        if (e instanceof HttpConnectTimeoutException) {
            return "no connection within " + connectTimeout.toMillis() + " ms";
        }
        if (e instanceof HttpTimeoutException) {
            return "no answer within " + deadline.toMillis() + " ms";
        }
        if (e instanceof LimitedBody.TooLargeException) {
            return "its answer is larger than " + MAX_ANSWER_BYTES + " bytes";
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
