package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * HTTP/3 over QUIC to clients on a TLS listener ({@code "http3"}): a UDP socket on the listener's own port, the
 * listener's certificates, and {@code Alt-Svc} on its HTTP/1.1 and h2 answers so clients find it. Every stream goes
 * through the same route, filter and node stages as an h2 stream.
 *
 * @param enabled default false (HTTP/3 is opt-in: it needs the UDP port open in firewalls)
 * @param maxConcurrentStreams request streams one connection may have open at once (QUIC's
 *     {@code initial_max_streams_bidi}); default 100
 * @param maxHeaderListSize the largest decoded request header section, in bytes
 *     ({@code SETTINGS_MAX_FIELD_SECTION_SIZE}); default the listener's {@code maxHeaderBytes}
 * @param altSvcMaxAgeSeconds how long clients may remember the {@code Alt-Svc} advertisement ({@code ma}); default
 *     86400 (one day)
 * @param maxConnectionsPerClient QUIC connections one client address may hold at once; default the listener's
 *     {@code maxConnectionsPerClient} (unlimited when that is unset)
 * @param retryTokenLifetimeSeconds how long a Retry token (address validation) stays valid; default 10
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Http3Config(Boolean enabled, Integer maxConcurrentStreams, Integer maxHeaderListSize,
        Integer altSvcMaxAgeSeconds, Integer maxConnectionsPerClient, Integer retryTokenLifetimeSeconds) {

    public static final int DEFAULT_MAX_CONCURRENT_STREAMS = 100;
    public static final int MAX_CONCURRENT_STREAMS = 10_000;
    public static final int DEFAULT_ALT_SVC_MAX_AGE_SECONDS = 86_400;
    public static final int DEFAULT_RETRY_TOKEN_LIFETIME_SECONDS = 10;

    public boolean enabledOrDefault() {
        return Boolean.TRUE.equals(enabled);
    }

    public int maxConcurrentStreamsOrDefault() {
        return maxConcurrentStreams == null ? DEFAULT_MAX_CONCURRENT_STREAMS : maxConcurrentStreams;
    }

    public int maxHeaderListSizeOr(int maxHeaderBytes) {
        return maxHeaderListSize == null ? maxHeaderBytes : maxHeaderListSize;
    }

    public int altSvcMaxAgeSecondsOrDefault() {
        return altSvcMaxAgeSeconds == null ? DEFAULT_ALT_SVC_MAX_AGE_SECONDS : altSvcMaxAgeSeconds;
    }

    public int retryTokenLifetimeSecondsOrDefault() {
        return retryTokenLifetimeSeconds == null ? DEFAULT_RETRY_TOKEN_LIFETIME_SECONDS : retryTokenLifetimeSeconds;
    }

    /** Whether {@code http3} (possibly null) turns HTTP/3 on. */
    public static boolean on(Http3Config http3) {
        return http3 != null && http3.enabledOrDefault();
    }

    /**
     * Field-named errors of {@code http3} at {@code at} ({@code listeners[0].http3}); {@code tls} whether the
     * listener terminates TLS, which QUIC needs.
     */
    static void check(String at, Http3Config http3, boolean tls, java.util.List<String> errors) {
        if (http3 == null) {
            return;
        }
        if (http3.enabledOrDefault() && !tls) {
            errors.add(at + ".enabled: HTTP/3 needs tls on the same listener (QUIC always encrypts)");
        }
        FieldChecks.range(at + ".maxConcurrentStreams", http3.maxConcurrentStreams(), 1, MAX_CONCURRENT_STREAMS,
                errors);
        FieldChecks.range(at + ".maxHeaderListSize", http3.maxHeaderListSize(), 1024, 1024 * 1024, errors);
        FieldChecks.range(at + ".altSvcMaxAgeSeconds", http3.altSvcMaxAgeSeconds(), 0, 365 * 86_400, errors);
        FieldChecks.range(at + ".maxConnectionsPerClient", http3.maxConnectionsPerClient(), 1,
                ConfigValidator.MAX_CLIENT_CONNECTIONS, errors);
        FieldChecks.range(at + ".retryTokenLifetimeSeconds", http3.retryTokenLifetimeSeconds(), 1, 300, errors);
    }
}
