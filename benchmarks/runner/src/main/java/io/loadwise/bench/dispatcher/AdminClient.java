package io.loadwise.bench.dispatcher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Reads the dispatcher's REST API (docs/rest-api.md) with its bearer token. */
public final class AdminClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI api;
    private final String token;

    /** @param api e.g. {@code http://127.0.0.1:8111/api} */
    public AdminClient(URI api, String token) {
        this.api = api;
        this.token = token;
    }

    /** {@code GET /api/clusters/{name}}. */
    public JsonNode cluster(String name) throws IOException, InterruptedException {
        return get("/clusters/" + name);
    }

    /** {@code GET /api/clusters/{name}/stats}: Table 2 last second, Table 8 totals, per-node figures. */
    public JsonNode stats(String name) throws IOException, InterruptedException {
        return get("/clusters/" + name + "/stats");
    }

    /** {@code GET /api/clusters/{name}/nodes/{node}/metrics}: the node's latest agent sample. */
    public JsonNode nodeMetrics(String cluster, String node) throws IOException, InterruptedException {
        return get("/clusters/" + cluster + "/nodes/" + node + "/metrics");
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token).GET().build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + api + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }
}
