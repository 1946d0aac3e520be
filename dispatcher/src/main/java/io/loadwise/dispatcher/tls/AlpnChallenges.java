package io.loadwise.dispatcher.tls;

import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLException;

/**
 * The tls-alpn-01 challenges the dispatcher's ACME orders have pending now (RFC 8737), shared by every TLS listener:
 * whichever one the CA reaches on port 443 answers them. A handshake gets a challenge's certificate only when its
 * ClientHello names that exact name (SNI) and offers {@code acme-tls/1} as its only protocol (ALPN), as a CA's does;
 * every other handshake gets the listener's own certificates. Bounded by the orders in flight: one entry per name.
 */
public final class AlpnChallenges {

    /** RFC 8737 §6.2: the one protocol a CA's validation handshake offers. */
    public static final String ACME_TLS_1 = "acme-tls/1";

    private static final Map<String, SslContext> PENDING = new ConcurrentHashMap<>();
    /** Whether any challenge is pending: the one check a handshake pays when none is (a volatile read). */
    private static volatile boolean pending;
    /** Handshakes answered with a challenge's certificate, ever: what shows that the CA's checks arrive. */
    private static final java.util.concurrent.atomic.LongAdder ANSWERED = new java.util.concurrent.atomic.LongAdder();

    private AlpnChallenges() {
    }

    /**
     * Answers a CA's handshake for {@code domain} with {@code certificate} (self-signed, carrying the acmeIdentifier
     * extension) until {@link #withdraw}.
     */
    public static void offer(String domain, PrivateKey key, X509Certificate certificate) throws SSLException {
        SslContext context = SslContextBuilder.forServer(key, certificate)
                .sslProvider(SslProvider.JDK) // a few handshakes per order: no need for the listener's provider
                .protocols("TLSv1.3", "TLSv1.2")
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, ACME_TLS_1))
                .build();
        PENDING.put(domain.toLowerCase(Locale.ROOT), context);
        pending = true;
    }

    public static void withdraw(String domain) {
        PENDING.remove(domain.toLowerCase(Locale.ROOT));
        pending = !PENDING.isEmpty();
    }

    static boolean anyPending() {
        return pending;
    }

    /** The context to answer a CA's {@code acme-tls/1} handshake for {@code hostname} with, or null: none pending. */
    static SslContext answer(String hostname) {
        SslContext context = hostname == null ? null : PENDING.get(hostname.toLowerCase(Locale.ROOT));
        if (context != null) {
            ANSWERED.increment();
        }
        return context;
    }

    /** Handshakes answered with a challenge's certificate since the start. */
    public static long answered() {
        return ANSWERED.sum();
    }

    /** Challenges pending now, for tests and the status. */
    public static int size() {
        return PENDING.size();
    }
}
