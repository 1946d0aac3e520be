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
import java.util.List;

/**
 * Fetches one cluster series from other replicas ({@code GET <adminUrl>/api/clusters/{c}/series/{metric}.json}),
 * through {@link PeerFigures}' client and with its bounds (connect timeout, one deadline, replicas asked), each
 * answer capped at {@link #MAX_ANSWER_BYTES} and checked against what was asked.
 */
public final class PeerSeries {

    /** A series answer is at most {@link SeriesPoints#MAX_POINTS} points of some 30 bytes each. */
    static final int MAX_ANSWER_BYTES = 256 * 1024;

    private static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final PeerFigures peers;

    public PeerSeries(PeerFigures peers) {
        this.peers = peers;
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
        return peers.fetch(replicas, path, MAX_ANSWER_BYTES, response -> read(response, cluster, series, step),
                Answer::failed);
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
