package io.loadwise.console.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** The few calls of the admin REST API the client commands make, with the bearer token. */
final class AdminClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI base;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    AdminClient(URI base, String token) {
        String text = base.toString();
        this.base = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        this.token = token;
    }

    /** {@code /api/clusters/{cluster}}. */
    JsonNode cluster(String cluster) throws AdminCallException {
        return call("GET", "/api/clusters/" + segment(cluster), null);
    }

    /** {@code /api/clusters/{cluster}/nodes/{node}}. */
    JsonNode node(String cluster, String node) throws AdminCallException {
        return call("GET", nodePath(cluster, node), null);
    }

    /** {@code PUT /api/clusters/{cluster}/nodes/{node}} with {@code body}. */
    JsonNode updateNode(String cluster, String node, JsonNode body) throws AdminCallException {
        return call("PUT", nodePath(cluster, node), body.toString());
    }

    static ObjectMapper json() {
        return JSON;
    }

    private static String nodePath(String cluster, String node) {
        return "/api/clusters/" + segment(cluster) + "/nodes/" + segment(node);
    }

    private static String segment(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private JsonNode call(String method, String path, String body) throws AdminCallException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT)
                .header("Authorization", "Bearer " + token).header("Accept", "application/json");
        if (body != null) {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AdminCallException(method + " " + base + path + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdminCallException(method + " " + path + ": interrupted");
        }
        JsonNode answer;
        try {
            answer = JSON.readTree(response.body());
        } catch (IOException e) {
            answer = null;
        }
        if (response.statusCode() / 100 != 2) {
            StringBuilder message = new StringBuilder(method + " " + path + ": HTTP " + response.statusCode());
            if (answer != null && answer.hasNonNull("error")) {
                message.append(": ").append(answer.path("error").asText());
                for (JsonNode detail : answer.path("details")) {
                    message.append("; ").append(detail.asText());
                }
            }
            throw new AdminCallException(message.toString());
        }
        if (answer == null) {
            throw new AdminCallException(method + " " + path + ": the answer is not JSON");
        }
        return answer;
    }

    /** A call that failed: unreachable, refused, or answered with an error; the message says which. */
    static final class AdminCallException extends Exception {

        private static final long serialVersionUID = 1L;

        AdminCallException(String message) {
            super(message);
        }
    }
}
