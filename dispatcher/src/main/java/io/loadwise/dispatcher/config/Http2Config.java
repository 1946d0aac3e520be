package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * HTTP/2 to clients on an HTTP listener ({@code "http2"}): h2 by ALPN on TLS listeners, h2c (prior
 * knowledge or {@code Upgrade: h2c}) on clear ones.
 *
 * @param enabled default true
 * @param maxConcurrentStreams streams one connection may have open at once; default 100
 * @param maxHeaderListSize the largest decoded header list of a request, in bytes (RFC 9113 §6.5.2);
 *     default the cluster's {@code maxHeaderBytes}
 * @param priorKnowledgeOnly on a clear-text listener: every connection is HTTP/2 with prior knowledge, and one
 *     that does not start with the client preface is closed (RFC 9113 §3.4) rather than read as HTTP/1.1;
 *     default false (HTTP/1.1, h2c upgrade and prior knowledge on one port)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Http2Config(Boolean enabled, Integer maxConcurrentStreams, Integer maxHeaderListSize,
        Boolean priorKnowledgeOnly) {

    public Http2Config(Boolean enabled, Integer maxConcurrentStreams, Integer maxHeaderListSize) {
        this(enabled, maxConcurrentStreams, maxHeaderListSize, null);
    }

    public boolean priorKnowledgeOnlyOrDefault() {
        return Boolean.TRUE.equals(priorKnowledgeOnly);
    }

    public static final int DEFAULT_MAX_CONCURRENT_STREAMS = 100;

    public boolean enabledOrDefault() {
        return enabled == null || enabled;
    }

    public int maxConcurrentStreamsOrDefault() {
        return maxConcurrentStreams == null ? DEFAULT_MAX_CONCURRENT_STREAMS : maxConcurrentStreams;
    }
}
