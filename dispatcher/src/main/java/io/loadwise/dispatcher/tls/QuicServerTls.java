package io.loadwise.dispatcher.tls;

import io.loadwise.dispatcher.config.TlsConfig;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.ssl.ClientAuth;
import io.netty.util.DomainWildcardMappingBuilder;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;

/**
 * The QUIC (HTTP/3) TLS context of a listener, built from the same {@link TlsConfig} as its TCP side: the default
 * certificate, one per SNI entry chosen by server name, and client certificates when {@code clientAuth} asks for
 * them. QUIC is TLS 1.3 only, with BoringSSL's TLS 1.3 suites: {@code protocols} and {@code ciphers} do not apply.
 * 0-RTT (early data) is off: a replayed request can never reach a node (RFC 9114 §10.9, RFC 8470).
 */
public final class QuicServerTls {

    private QuicServerTls() {
    }

    /**
     * Reads every file of {@code config}; {@code alpn} the protocols offered ({@code h3}).
     *
     * @throws TlsFileException naming the field and file at fault
     */
    public static QuicSslContext load(String at, TlsConfig config, String... alpn) throws TlsFileException {
        QuicSslContext fallback = context(at, config.certificate(), config.key(), config.keyPassword(), config, alpn);
        List<TlsConfig.SniCertificate> entries = config.certificatesOrEmpty();
        if (entries.isEmpty()) {
            return fallback;
        }
        DomainWildcardMappingBuilder<QuicSslContext> mapping = new DomainWildcardMappingBuilder<>(fallback);
        for (int i = 0; i < entries.size(); i++) {
            TlsConfig.SniCertificate entry = entries.get(i);
            QuicSslContext context = context(at + ".certificates[" + i + "]", entry.certificate(), entry.key(),
                    entry.keyPassword(), config, alpn);
            for (String name : entry.serverNamesOrEmpty()) {
                mapping.add(name.toLowerCase(Locale.ROOT), context);
            }
        }
        return QuicSslContextBuilder.buildForServerWithSni(mapping.build());
    }

    private static QuicSslContext context(String at, String certFile, String keyFile, String password,
            TlsConfig config, String... alpn) throws TlsFileException {
        if (certFile == null || keyFile == null) {
            throw new TlsFileException(at + (certFile == null ? ".certificate" : ".key") + ": missing");
        }
        List<X509Certificate> chain = PemFiles.certificates(certFile);
        PrivateKey key = PemFiles.privateKey(keyFile, password);
        QuicSslContextBuilder builder = QuicSslContextBuilder.forServer(key, null,
                chain.toArray(new X509Certificate[0])).applicationProtocols(alpn).earlyData(false);
        if (config.clientCa() != null) {
            builder.trustManager(PemFiles.certificates(config.clientCa()).toArray(new X509Certificate[0]));
        }
        builder.clientAuth(switch (config.clientAuthOrDefault()) {
            case "require" -> ClientAuth.REQUIRE;
            case "optional" -> ClientAuth.OPTIONAL;
            default -> ClientAuth.NONE;
        });
        try {
            return builder.build();
        } catch (RuntimeException e) {
            throw new TlsFileException(at + ": cannot set up QUIC TLS: " + e.getMessage());
        }
    }
}
