package io.loadwise.dispatcher.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import java.util.Locale;

/**
 * Which TLS implementation to use: BoringSSL (netty-tcnative) when its natives load on this machine, the
 * JDK's otherwise. {@code -Dloadwise.tls.provider=jdk} (or {@code openssl}) forces one.
 */
public final class TlsProviders {

    public static final String PROPERTY = "loadwise.tls.provider";

    private TlsProviders() {
    }

    public static SslProvider preferred() {
        String forced = System.getProperty(PROPERTY);
        if (forced != null) {
            return switch (forced.toLowerCase(Locale.ROOT)) {
                case "jdk" -> SslProvider.JDK;
                case "openssl" -> SslProvider.OPENSSL;
                default -> throw new IllegalArgumentException(PROPERTY + ": '" + forced + "' is not jdk or openssl");
            };
        }
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    /** How the provider is named in the log and the API. */
    public static String describe(SslProvider provider) {
        if (provider == SslProvider.JDK) {
            return "JDK";
        }
        return OpenSsl.isAvailable() ? OpenSsl.versionString() : "OpenSSL (unavailable: "
                + OpenSsl.unavailabilityCause() + ")";
    }
}
