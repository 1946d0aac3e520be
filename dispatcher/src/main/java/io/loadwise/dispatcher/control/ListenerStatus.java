package io.loadwise.dispatcher.control;

import io.loadwise.dispatcher.tls.CertificateInfo;
import java.util.List;

/**
 * What a cluster's listener speaks, for the operator: its protocols and, on a TLS listener, the TLS
 * implementation, versions and certificates in use (as reloaded), with a warning for each certificate
 * expired or expiring within {@link CertificateInfo#EXPIRY_WARNING}.
 *
 * @param protocols e.g. {@code ["h2", "http/1.1"]} (TLS, ALPN order), {@code ["http/1.1", "h2c"]}, {@code ["tcp"]}
 * @param tlsProvider {@code null} on a clear-text listener
 * @param http3 what its HTTP/3 (QUIC) side counted; {@code null} when it serves none ({@code h3} is then among
 *     {@code protocols})
 * @param proxyProtocol the PROXY headers read on a listener with {@code proxyProtocol}, by outcome; {@code null}
 *     without it
 */
public record ListenerStatus(List<String> protocols, boolean tls, String tlsProvider, List<String> tlsVersions,
        List<CertificateInfo> certificates, List<String> warnings, io.loadwise.dispatcher.metrics.QuicCounts http3,
        RoutedListenerStatus.ProxyProtocolCounts proxyProtocol) {

    public ListenerStatus(List<String> protocols, boolean tls, String tlsProvider, List<String> tlsVersions,
            List<CertificateInfo> certificates, List<String> warnings) {
        this(protocols, tls, tlsProvider, tlsVersions, certificates, warnings, null, null);
    }

    /** This status with {@code counts} as its PROXY header counts. */
    public ListenerStatus withProxyProtocol(RoutedListenerStatus.ProxyProtocolCounts counts) {
        return new ListenerStatus(protocols, tls, tlsProvider, tlsVersions, certificates, warnings, http3, counts);
    }

    public ListenerStatus {
        protocols = List.copyOf(protocols);
        tlsVersions = List.copyOf(tlsVersions);
        certificates = List.copyOf(certificates);
        warnings = List.copyOf(warnings);
    }
}
