package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;
import java.util.List;

/**
 * A TLS listener's certificate, obtained from an ACME CA (RFC 8555: Let's Encrypt, ZeroSSL, an internal step-ca)
 * and renewed before it expires ({@code "acme"} in {@code tls}). The certificate and key are written to the
 * listener's {@code tls.certificate} and {@code tls.key} files, which the listener reloads as it reloads any change.
 *
 * @param directory the CA's directory URL ({@code https://acme-v02.api.letsencrypt.org/directory}), or an acme4j
 *     {@code acme://} URI ({@code acme://letsencrypt.org/staging}, {@code acme://pebble/localhost:14000})
 * @param email the account's contact, for the CA's expiry mail; optional
 * @param domains the DNS names the certificate covers, the first its subject; at least one
 * @param challenge how the CA checks control of each name: {@code http-01} (the default: the CA fetches
 *     {@code http://<name>/.well-known/acme-challenge/<token>}, which every HTTP listener of the dispatcher answers
 *     for its pending tokens) or {@code tls-alpn-01} (the CA makes a TLS handshake with {@code <name>:443}, ALPN
 *     {@code acme-tls/1}, which every TLS listener of the dispatcher answers for its pending names)
 * @param renewBeforeDays renew this many days before expiry, or at two thirds of the certificate's life when that
 *     comes first, unless the CA names a renewal window (ARI, RFC 9773); default 30
 * @param trustedCa a PEM file of the CA certificates the directory's HTTPS certificate must chain to, for a private
 *     CA (step-ca, Pebble); default the JDK's trusted CAs
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AcmeConfig(String directory, String email, List<String> domains, String challenge,
        Integer renewBeforeDays, String trustedCa) {

    public static final String HTTP_01 = "http-01";
    public static final String TLS_ALPN_01 = "tls-alpn-01";
    public static final List<String> CHALLENGES = List.of(HTTP_01, TLS_ALPN_01);
    public static final int DEFAULT_RENEW_BEFORE_DAYS = 30;

    public List<String> domainsOrEmpty() {
        return domains == null ? List.of() : domains;
    }

    public String challengeOrDefault() {
        return challenge == null ? HTTP_01 : challenge;
    }

    public Duration renewBefore() {
        return Duration.ofDays(renewBeforeDays == null ? DEFAULT_RENEW_BEFORE_DAYS : renewBeforeDays);
    }
}
