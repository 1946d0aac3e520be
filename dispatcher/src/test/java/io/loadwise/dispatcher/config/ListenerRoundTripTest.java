package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * What the configuration writer produces for listeners and rate limits reads back as the same configuration: the
 * file, the API and etcd all store {@link ConfigLoader#toJson}, so a field the writer invented (a getter taken
 * for a field) would make the next read fail.
 */
class ListenerRoundTripTest {

    private static final String EVERY_FIELD = """
            {"listeners": [{"name": "edge", "listen": "127.0.0.1:0", "trustedProxies": ["10.0.0.0/8"],
                            "maxClientConnections": 100, "maxConnectionsPerClient": 5, "idleTimeoutMs": 1000,
                            "headerTimeoutMs": 2000, "maxHeaderBytes": 8192,
              "routes": [
                {"name": "a", "match": {"host": "*.example.com", "pathPrefix": "/api", "methods": ["GET"],
                                        "headers": {"x-canary": "1", "x-debug": {"present": true}},
                                        "query": {"v": "2"}},
                 "cluster": "shop", "rewrite": {"pathPrefix": "/v2", "host": "internal"},
                 "requestHeaders": {"set": {"x-env": "prod"}, "remove": ["x-debug"]},
                 "responseHeaders": {"set": {"x-served": "edge"}}, "rateLimit": "per-client"},
                {"match": {"pathRegex": "/s/[0-9]+"},
                 "split": [{"cluster": "shop", "weight": 95}, {"cluster": "canary", "weight": 5}]},
                {"match": {}, "redirect": {"status": 308, "scheme": "https", "stripQuery": true}},
                {"respond": {"status": 503, "body": "down", "contentType": "text/plain"}}]}],
             "rateLimits": {"per-client": {"key": "header:x-user", "requestsPerSecond": 2.5, "burst": 10,
                                           "maxKeys": 5000}}}
            """;

    @Test
    void everyListenerAndRateLimitFieldReadsBackAsWritten() throws ConfigValidationException {
        LoadwiseConfig config = ConfigLoader.parse(EVERY_FIELD);
        String written = ConfigLoader.toJson(config);
        assertEquals(config, ConfigLoader.parse(written), written);
        ListenerConfig listener = config.listeners().get(0);
        assertEquals(listener, ConfigLoader.parseListener(ConfigLoader.toJson(listener)));
        RateLimitConfig limit = config.rateLimits().get("per-client");
        assertEquals(limit, ConfigLoader.parseRateLimit(ConfigLoader.toJson(limit)));
    }
}
