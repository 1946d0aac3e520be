package io.loadwise.console.replicas;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.loadwise.console.store.Series;
import io.loadwise.console.store.SeriesPoints;
import io.loadwise.console.store.Window;
import io.loadwise.dispatcher.control.ReplicaInfo;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Fetches one cluster series from other replicas ({@code GET <adminUrl>/api/clusters/{c}/series/{metric}.json}),
 * through {@link PeerFigures}' client and with its bounds (connect timeout, one deadline, replicas asked), each
 * answer capped at {@link #MAX_ANSWER_BYTES} and checked against what was asked.
 *
 * <p>Answers, failures included, are kept for {@link #FRESH_NANOS}: a console page draws a dozen summed graphs
 * at once and reloads them, and without the cache each graph would ask every replica again, and wait out a
 * stalled replica's whole deadline again. At most {@link #MAX_CACHED} answers are kept, the oldest dropped first.
 */
public final class PeerSeries {

    /** A series answer is at most {@link SeriesPoints#MAX_POINTS} points of some 30 bytes each. */
    static final int MAX_ANSWER_BYTES = 256 * 1024;

    private static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** How long an answer is reused: a few of the finest window's 1 s points, well under a human's refresh. */
    static final long FRESH_NANOS = 5_000_000_000L;

    /** Bounds the cache: replicas x clusters x metrics x windows that a console could ask for at once. */
    static final int MAX_CACHED = 1024;

    private final PeerFigures peers;
    private final LongSupplier nanoTime;
    private final Map<String, Cached> cache = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
            return size() > MAX_CACHED;
        }
    };

    private record Cached(Answer answer, long fetchedAt) {
    }

    public PeerSeries(PeerFigures peers) {
        this(peers, System::nanoTime);
    }

    PeerSeries(PeerFigures peers, LongSupplier nanoTime) {
        this.peers = peers;
        this.nanoTime = nanoTime;
    }

    /** What one replica answered: its points, or why there are none. */
    public record Answer(SeriesPoints points, String problem) {

        static Answer failed(String problem) {
            return new Answer(null, problem);
        }
    }

    /** Asks every replica at once; the answers come back in the same order, within the deadline. */
    public List<Answer> fetch(List<ReplicaInfo> replicas, String cluster, Series series, Window window) {
        String path = "/api/clusters/" + segment(cluster) + "/series/" + segment(series.metric()) + ".json?window="
                + window.key();
        long step = SeriesPoints.step(window);
        long now = nanoTime.getAsLong();
        Answer[] answers = new Answer[replicas.size()];
        List<ReplicaInfo> missing = new ArrayList<>();
        List<Integer> missingAt = new ArrayList<>();
        synchronized (cache) {
            for (int i = 0; i < answers.length; i++) {
                Cached cached = cache.get(key(replicas.get(i), path));
                if (cached != null && now - cached.fetchedAt() < FRESH_NANOS) {
                    answers[i] = cached.answer();
                } else {
                    missing.add(replicas.get(i));
                    missingAt.add(i);
                }
            }
        }
        if (!missing.isEmpty()) {
            List<Answer> fetched = peers.fetch(missing, path, MAX_ANSWER_BYTES,
                    response -> read(response, cluster, series, step), Answer::failed);
            synchronized (cache) {
                for (int j = 0; j < fetched.size(); j++) {
                    answers[missingAt.get(j)] = fetched.get(j);
                    cache.put(key(missing.get(j), path), new Cached(fetched.get(j), now));
                }
            }
        }
        return List.of(answers);
    }

    /** A replica that restarts under the same id with another admin URL is another cache entry. */
    private static String key(ReplicaInfo replica, String path) {
        return replica.id() + ' ' + replica.adminUrl() + path;
    }

    private static Answer read(HttpResponse<byte[]> response, String cluster, Series series, long step) {
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            return Answer.failed(PeerFigures.refusedToken(status));
        }
        if (status == 404) {
            return Answer.failed("HTTP 404: it has no cluster " + cluster + " (a change still on its way through etcd)"
                    + " or is an older Loadwise version without series JSON");
        }
        if (status != 200) {
            return Answer.failed("its admin API answered HTTP " + status);
        }
        SeriesDocument document;
        try {
            document = JSON.readValue(response.body(), SeriesDocument.class);
        } catch (IOException e) {
            return Answer.failed("its answer is not a series document");
        }
        try {
            return new Answer(document.toPoints(series.metric(), step), null);
        } catch (IllegalArgumentException e) {
            return Answer.failed("its answer is not a usable series: " + e.getMessage());
        }
    }

    private static String segment(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
