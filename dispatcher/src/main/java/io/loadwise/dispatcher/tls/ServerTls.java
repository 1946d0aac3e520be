package io.loadwise.dispatcher.tls;

import io.loadwise.dispatcher.config.TlsConfig;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.util.DomainWildcardMappingBuilder;
import io.netty.util.Mapping;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLException;

/**
 * The TLS contexts of one listener, built once from its files: the default certificate and one per SNI
 * entry, selected by the server name the client asks for. Immutable: a reload builds a new one and the
 * listener swaps it in, so a handshake sees one consistent set.
 */
public final class ServerTls {

    /**
     * TLS 1.3 suites and the TLS 1.2 ECDHE suites with AEAD ciphers: forward secrecy, no CBC, no RSA key
     * exchange (Mozilla's "intermediate" profile). Unsupported ones are dropped by the provider.
     */
    public static final List<String> DEFAULT_CIPHERS = List.of(
            "TLS_AES_128_GCM_SHA256",
            "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");
    public static final List<String> SUPPORTED_PROTOCOLS = List.of("TLSv1.2", "TLSv1.3");

    private final SslContext defaultContext;
    private final Mapping<String, SslContext> byName;
    private final List<CertificateInfo> certificates;
    private final SslProvider provider;
    /** Each context's certificate chain, leaf first: what OCSP stapling asks the responder about. */
    private final Map<SslContext, List<X509Certificate>> chains;

    private ServerTls(SslContext defaultContext, Mapping<String, SslContext> byName,
            List<CertificateInfo> certificates, SslProvider provider, Map<SslContext, List<X509Certificate>> chains) {
        this.defaultContext = defaultContext;
        this.byName = byName;
        this.certificates = certificates;
        this.provider = provider;
        this.chains = chains;
    }

    /**
     * Reads every file of {@code config} and builds the contexts.
     *
     * @param at the field path errors start with ({@code clusters[0].tls})
     * @param alpn the protocols offered by ALPN, most preferred first ({@code h2}, {@code http/1.1})
     * @throws TlsFileException naming the field and file at fault
     */
    public static ServerTls load(String at, TlsConfig config, SslProvider provider, List<String> alpn)
            throws TlsFileException {
        List<CertificateInfo> infos = new ArrayList<>();
        Map<SslContext, List<X509Certificate>> chains = new IdentityHashMap<>();
        SslContext fallback = context(at, config.certificate(), config.key(), config.keyPassword(), config,
                provider, alpn, List.of(), infos, chains);
        DomainWildcardMappingBuilder<SslContext> mapping = new DomainWildcardMappingBuilder<>(fallback);
        List<TlsConfig.SniCertificate> entries = config.certificatesOrEmpty();
        for (int i = 0; i < entries.size(); i++) {
            TlsConfig.SniCertificate entry = entries.get(i);
            String entryAt = at + ".certificates[" + i + "]";
            SslContext context = context(entryAt, entry.certificate(), entry.key(), entry.keyPassword(), config,
                    provider, alpn, entry.serverNamesOrEmpty(), infos, chains);
            for (String name : entry.serverNamesOrEmpty()) {
                mapping.add(name.toLowerCase(Locale.ROOT), context);
            }
        }
        return new ServerTls(fallback, mapping.build(), List.copyOf(infos), provider,
                Collections.unmodifiableMap(chains));
    }

    /** The context for a client asking for {@code serverName} ({@code null}: it sent none). */
    public SslContext select(String serverName) {
        return serverName == null ? defaultContext : byName.map(serverName.toLowerCase(Locale.ROOT));
    }

    public List<CertificateInfo> certificates() {
        return certificates;
    }

    public SslProvider provider() {
        return provider;
    }

    /** Every context's chain, leaf first (contexts compared by identity). */
    public Map<SslContext, List<X509Certificate>> chains() {
        return chains;
    }

    /** Whether this provider can staple OCSP responses: only OpenSSL/BoringSSL lets each handshake be given one. */
    public static boolean canStaple(SslProvider provider) {
        return provider != SslProvider.JDK && OpenSsl.isOcspSupported();
    }

    /** Warnings about certificates that expired or expire within {@link CertificateInfo#EXPIRY_WARNING}. */
    public static List<String> expiryWarnings(String at, List<CertificateInfo> certificates, Instant now) {
        List<String> warnings = new ArrayList<>();
        for (CertificateInfo info : certificates) {
            if (info.notAfter().isBefore(now)) {
                warnings.add(at + ": certificate " + info.subject() + " expired on " + info.notAfter());
            } else if (info.expiresSoon(now)) {
                warnings.add(at + ": certificate " + info.subject() + " expires on " + info.notAfter()
                        + " (in " + info.secondsToExpiry(now) / 86_400 + " days)");
            }
        }
        return warnings;
    }

    private static SslContext context(String at, String certFile, String keyFile, String password,
            TlsConfig config, SslProvider provider, List<String> alpn, List<String> serverNames,
            List<CertificateInfo> infos, Map<SslContext, List<X509Certificate>> chains) throws TlsFileException {
        if (certFile == null) {
            throw new TlsFileException(at + ".certificate: missing");
        }
        if (keyFile == null) {
            throw new TlsFileException(at + ".key: missing");
        }
        List<X509Certificate> chain = field(at + ".certificate", () -> PemFiles.certificates(certFile));
        PrivateKey key = field(at + ".key", () -> PemFiles.privateKey(keyFile, password));
        field(at + ".key", () -> {
            PemFiles.checkPair(chain.get(0), key, keyFile, certFile);
            return null;
        });
        infos.add(CertificateInfo.of(chain.get(0), serverNames));
        SslContextBuilder builder = SslContextBuilder.forServer(key, chain)
                .sslProvider(provider)
                .protocols(config.protocolsOrDefault())
                .ciphers(config.ciphers() == null ? DEFAULT_CIPHERS : config.ciphers(),
                        SupportedCipherSuiteFilter.INSTANCE)
                .enableOcsp(config.ocspStaplingOrDefault() && canStaple(provider));
        if (!alpn.isEmpty()) {
            builder.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                    ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                    ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, alpn));
        }
        if (config.clientCa() != null) {
            List<X509Certificate> cas = field(at.replaceFirst("\\.certificates\\[\\d+]$", "") + ".clientCa",
                    () -> PemFiles.certificates(config.clientCa()));
            builder.trustManager(cas);
        }
        builder.clientAuth(switch (config.clientAuthOrDefault()) {
            case "require" -> ClientAuth.REQUIRE;
            case "optional" -> ClientAuth.OPTIONAL;
            default -> ClientAuth.NONE;
        });
        try {
            SslContext context = builder.build();
            if (context.cipherSuites().isEmpty()) {
                throw new TlsFileException(at + ": none of the configured ciphers is supported by "
                        + TlsProviders.describe(provider));
            }
            chains.put(context, List.copyOf(chain));
            return context;
        } catch (SSLException | IllegalArgumentException e) {
            throw new TlsFileException(at + ": cannot set up TLS: " + e.getMessage());
        }
    }

    /** Runs {@code read}, prefixing a failure with the field it concerns. */
    private static <T> T field(String at, FileRead<T> read) throws TlsFileException {
        try {
            return read.run();
        } catch (TlsFileException e) {
            throw new TlsFileException(at + ": " + e.getMessage());
        }
    }

    @FunctionalInterface
    private interface FileRead<T> {
        T run() throws TlsFileException;
    }

    /** ALPN protocols for a listener: h2 first when HTTP/2 is on. */
    public static List<String> alpnFor(boolean http2) {
        return http2 ? List.of(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1)
                : List.of(ApplicationProtocolNames.HTTP_1_1);
    }
}
