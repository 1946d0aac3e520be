package io.loadwise.dispatcher.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The few etcd v3 calls Loadwise needs, through etcd's JSON gateway ({@code /v3/kv/range}, {@code /v3/kv/txn},
 * {@code /v3/watch}, {@code /v3/lease/*}) with the JDK HTTP client. The official Java client (jetcd 0.8) is
 * built on Vert.x 4 and gRPC-Netty, which bring Netty 4.1 onto the class path the dispatcher runs Netty 4.2
 * on; one class path cannot hold both, and Vert.x 4 does not support 4.2. Keys and values are UTF-8 text,
 * base64-encoded on the wire as the gateway requires.
 *
 * <p>Each call tries the endpoints in order and fails with {@link IOException} when none answers.
 */
public final class EtcdClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(3);

    private final List<URI> endpoints;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1).build();

    /** One key and its value as stored. */
    public record KeyValue(String key, String value, long modRevision) {
    }

    /** What a range read: the keys and the store's revision at the time. */
    public record Range(List<KeyValue> kvs, long revision) {
    }

    public EtcdClient(List<String> endpoints) {
        List<URI> uris = new ArrayList<>();
        for (String endpoint : endpoints) {
            uris.add(URI.create(endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint));
        }
        this.endpoints = List.copyOf(uris);
    }

    public String describe() {
        return endpoints.toString();
    }

    /** Every key starting with {@code prefix}. */
    public Range rangePrefix(String prefix) throws IOException {
        return range(prefix, prefixEnd(prefix));
    }

    /** Every key from {@code from} (included) to {@code to} (excluded), read at one revision. */
    public Range range(String from, String to) throws IOException {
        ObjectNode body = JSON.createObjectNode().put("key", b64(from)).put("range_end", b64(to));
        JsonNode reply = call("/v3/kv/range", body);
        List<KeyValue> kvs = new ArrayList<>();
        for (JsonNode kv : reply.path("kvs")) {
            kvs.add(new KeyValue(text(kv.path("key").asText()), text(kv.path("value").asText("")),
                    kv.path("mod_revision").asLong()));
        }
        return new Range(kvs, reply.path("header").path("revision").asLong());
    }

    /** A transaction under construction: compares, then the operations run when they all hold. */
    public static final class Txn {
        private final ArrayNode compare = JSON.createArrayNode();
        private final ArrayNode success = JSON.createArrayNode();

        /** The key's last modification is {@code revision} (0: the key does not exist). */
        public Txn modRevisionIs(String key, long revision) {
            compare.addObject().put("key", b64(key)).put("target", "MOD").put("result", "EQUAL")
                    .put("mod_revision", revision);
            return this;
        }

        public Txn put(String key, String value, long lease) {
            ObjectNode put = success.addObject().putObject("request_put").put("key", b64(key)).put("value", b64(value));
            if (lease != 0) {
                put.put("lease", lease);
            }
            return this;
        }

        public Txn delete(String key) {
            success.addObject().putObject("request_delete_range").put("key", b64(key));
            return this;
        }
    }

    /** Runs {@code txn}; returns the new revision when its compares held, -1 when they did not. */
    public long commit(Txn txn) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        body.set("compare", txn.compare);
        body.set("success", txn.success);
        JsonNode reply = call("/v3/kv/txn", body);
        return reply.path("succeeded").asBoolean(false) ? reply.path("header").path("revision").asLong() : -1;
    }

    /** A new lease of {@code ttlSeconds}; returns its id. */
    public long grantLease(int ttlSeconds) throws IOException {
        JsonNode reply = call("/v3/lease/grant", JSON.createObjectNode().put("TTL", ttlSeconds));
        return reply.path("ID").asLong();
    }

    /** Renews a lease; returns its TTL, 0 when it expired or is unknown. */
    public long keepAlive(long lease) throws IOException {
        JsonNode reply = call("/v3/lease/keepalive", JSON.createObjectNode().put("ID", lease));
        return reply.path("result").path("TTL").asLong(0);
    }

    public void revokeLease(long lease) throws IOException {
        call("/v3/lease/revoke", JSON.createObjectNode().put("ID", lease));
    }

    /**
     * Watches every key under {@code prefix} from {@code startRevision} and calls {@code onChange} with the
     * store's revision after each batch of changes. Blocks until the stream ends or fails (etcd stopped, the
     * thread interrupted); then throws.
     */
    public void watchPrefix(String prefix, long startRevision, Consumer<Long> onChange) throws IOException {
        watchRange(prefix, prefixEnd(prefix), startRevision, onChange);
    }

    /** As {@link #watchPrefix} for the keys from {@code from} (included) to {@code to} (excluded). */
    public void watchRange(String from, String to, long startRevision, Consumer<Long> onChange) throws IOException {
        ObjectNode create = JSON.createObjectNode();
        create.putObject("create_request").put("key", b64(from)).put("range_end", b64(to))
                .put("start_revision", startRevision);
        IOException last = null;
        for (URI endpoint : endpoints) {
            HttpRequest request = HttpRequest.newBuilder(endpoint.resolve("/v3/watch"))
                    .POST(HttpRequest.BodyPublishers.ofString(create.toString())).build();
            HttpResponse<Stream<String>> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofLines());
            } catch (IOException e) {
                last = e;
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            try (Stream<String> lines = response.body()) {
                lines.forEach(line -> {
                    JsonNode result = parse(line).path("result");
                    if (result.has("events")) {
                        onChange.accept(result.path("header").path("revision").asLong());
                    }
                });
            } catch (java.io.UncheckedIOException e) {
                throw e.getCause();
            }
            throw new IOException("etcd " + endpoint + " ended the watch");
        }
        throw last == null ? new IOException("no etcd endpoint") : last;
    }

    private JsonNode call(String path, ObjectNode body) throws IOException {
        IOException last = null;
        for (URI endpoint : endpoints) {
            HttpRequest request = HttpRequest.newBuilder(endpoint.resolve(path)).timeout(CALL_TIMEOUT)
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build();
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                JsonNode reply = parse(response.body());
                if (response.statusCode() != 200) {
                    throw new IOException("etcd " + endpoint + path + ": HTTP " + response.statusCode() + ": "
                            + reply.path("message").asText(reply.path("error").asText("")));
                }
                return reply;
            } catch (IOException e) {
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
        throw last == null ? new IOException("no etcd endpoint") : last;
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }

    /** The end of the range of keys starting with {@code prefix}: its last character plus one. */
    static String prefixEnd(String prefix) {
        char last = prefix.charAt(prefix.length() - 1);
        return prefix.substring(0, prefix.length() - 1) + (char) (last + 1);
    }
}
