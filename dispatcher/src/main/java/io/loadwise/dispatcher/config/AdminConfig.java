package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The admin endpoint (REST API and console).
 *
 * @param listen {@code host:port}; default {@code 127.0.0.1:8111} (loopback unless told otherwise)
 * @param token bearer token of the REST API; {@code LOADWISE_ADMIN_TOKEN} overrides it
 * @param dataDir where metric stores and console state live; default {@code ./data}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AdminConfig(String listen, String token, String dataDir) {

    public static final String DEFAULT_LISTEN = "127.0.0.1:8111";

    public String listenOrDefault() {
        return listen == null ? DEFAULT_LISTEN : listen;
    }

    public String dataDirOrDefault() {
        return dataDir == null ? "data" : dataDir;
    }
}
