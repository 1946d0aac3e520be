package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * TLS termination on an HTTP listener ({@code "tls"} of a cluster). The top-level certificate and key are
 * the default, served to clients that send no server name or one no entry of {@link #certificates} names.
 * Paths are PEM files, relative to the dispatcher's working directory.
 *
 * @param certificate the certificate chain, leaf first
 * @param key the private key (PKCS#8; encrypted when {@code keyPassword} is given)
 * @param keyPassword the password of an encrypted key; never shown by the admin API ({@value #KEY_PASSWORD_SET})
 * @param protocols TLS versions offered; default TLS 1.3 and 1.2
 * @param ciphers cipher suites (names as the JDK spells them); default the modern AEAD suites
 * @param clientCa CA certificates that client certificates must chain to
 * @param clientAuth {@code none}, {@code optional} or {@code require}; default {@code require} with a
 *     {@code clientCa}, {@code none} without
 * @param certificates more certificates, chosen by the server name the client asks for (SNI)
 * @param reloadCheckMs how often the files are checked for changes; default 5 s
 * @param acme obtain and renew the certificate from an ACME CA ({@link AcmeConfig}); {@code certificate} and
 *     {@code key} then name where it is stored, and need not exist at start
 * @param ocspStapling staple each certificate's OCSP response, fetched from the responder its certificate names and
 *     refreshed before it goes stale; default off
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TlsConfig(
        String certificate,
        String key,
        String keyPassword,
        List<String> protocols,
        List<String> ciphers,
        String clientCa,
        String clientAuth,
        List<SniCertificate> certificates,
        Integer reloadCheckMs,
        AcmeConfig acme,
        Boolean ocspStapling) {

    /** The canonical constructor is the one JSON uses. */
    @JsonCreator
    public TlsConfig {
    }

    /** Without ACME: the certificate files are the operator's. */
    public TlsConfig(String certificate, String key, String keyPassword, List<String> protocols, List<String> ciphers,
            String clientCa, String clientAuth, List<SniCertificate> certificates, Integer reloadCheckMs) {
        this(certificate, key, keyPassword, protocols, ciphers, clientCa, clientAuth, certificates, reloadCheckMs, null,
                null);
    }

    /**
     * This configuration with each key password (the top-level one and every SNI entry's) replaced by
     * {@code password.apply(keyPassword, keyFile)}; every other field kept, so that a field added later is never
     * dropped by code that only masks or restores passwords (the admin API).
     */
    public TlsConfig withKeyPasswords(java.util.function.BinaryOperator<String> password) {
        List<SniCertificate> entries = certificates == null ? null : certificates.stream()
                .map(e -> e == null ? null : new SniCertificate(e.serverNames(), e.certificate(), e.key(),
                        password.apply(e.keyPassword(), e.key())))
                .collect(java.util.stream.Collectors.toList()); // toList() would refuse the null entries
        return new TlsConfig(certificate, key, password.apply(keyPassword, key), protocols, ciphers, clientCa,
                clientAuth, entries, reloadCheckMs, acme, ocspStapling);
    }

    public boolean ocspStaplingOrDefault() {
        return Boolean.TRUE.equals(ocspStapling);
    }

    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
    public static final int DEFAULT_RELOAD_CHECK_MS = 5_000;
    /**
     * What the admin API shows in place of a {@code keyPassword}; a {@code PUT} that sends it back keeps the
     * password in force, and the validator refuses it as a password of its own.
     */
    public static final String KEY_PASSWORD_SET = "(set)";

    public List<String> protocolsOrDefault() {
        return protocols == null ? DEFAULT_PROTOCOLS : protocols;
    }

    public List<SniCertificate> certificatesOrEmpty() {
        return certificates == null ? List.of() : certificates;
    }

    /** {@code none}, {@code optional} or {@code require}. */
    public String clientAuthOrDefault() {
        if (clientAuth != null) {
            return clientAuth;
        }
        return clientCa == null ? "none" : "require";
    }

    public int reloadCheckMsOrDefault() {
        return reloadCheckMs == null ? DEFAULT_RELOAD_CHECK_MS : reloadCheckMs;
    }

    /**
     * A certificate served to clients asking for one of {@code serverNames} ({@code *.example.com} matches
     * one label).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SniCertificate(List<String> serverNames, String certificate, String key, String keyPassword) {

        public List<String> serverNamesOrEmpty() {
            return serverNames == null ? List.of() : serverNames;
        }
    }
}
