package io.loadwise.console.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Real HTTP calls to the admin API with {@link HttpClient}. */
public final class ApiClient {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String token;

    public ApiClient(int port, String token) {
        this.base = "http://127.0.0.1:" + port;
        this.token = token;
    }

    public record Response(int status, java.net.http.HttpHeaders headers, String body) {

        public JsonNode json() {
            try {
                return MAPPER.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    public Response get(String path) {
        return send("GET", path, null, "Bearer " + token);
    }

    public Response put(String path, String json) {
        return send("PUT", path, json, "Bearer " + token);
    }

    public Response post(String path, String json) {
        return send("POST", path, json, "Bearer " + token);
    }

    public Response delete(String path) {
        return send("DELETE", path, null, "Bearer " + token);
    }

    /** A GET with the token and one more request header. */
    public Response get(String path, String header, String value) {
        return send("GET", path, null, "Bearer " + token, header, value);
    }

    /** @param authorization the Authorization header, or {@code null} for none */
    public Response send(String method, String path, String json, String authorization) {
        return send(method, path, json, authorization, null, null);
    }

    private Response send(String method, String path, String json, String authorization, String header, String value) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (header != null) {
            request.header(header, value);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
