package io.loadwise.dispatcher.acme;

import io.loadwise.dispatcher.config.AcmeConfig;
import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.dispatcher.tls.PemFiles;
import io.loadwise.dispatcher.tls.TlsFileException;
import io.loadwise.dispatcher.tls.TlsListener;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one TLS listener's ACME certificate current (issue 34, item 4): obtains it when the files hold none yet
 * (the listener serves a self-signed stand-in meanwhile), renews it ahead of expiry, and writes each new one through
 * {@link TlsListener#replaceFiles}, so it is served from the next handshake without a restart. A failed order never
 * touches the files: the certificate in use stays, with a WARN, a counter ({@link AcmeStatus}), and another try after
 * a back-off of 1 minute doubling to 1 hour. Orders run one at a time on one daemon thread shared by every listener.
 */
public final class AcmeRenewal implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AcmeRenewal.class);
    private static final ScheduledExecutorService ORDERS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "loadwise-acme");
        thread.setDaemon(true);
        return thread;
    });
    static final Duration FIRST_RETRY = Duration.ofMinutes(1);
    static final Duration LAST_RETRY = Duration.ofHours(1);

    private final String name;
    private final TlsConfig tls;
    private final AcmeConfig acme;
    private final TlsListener listener;
    private final Clock clock;
    private Duration retry = FIRST_RETRY;
    /** When the CA would have the certificate renewed, from the last order (ARI); empty when it did not say. */
    private Optional<Instant> renewalWindowStart = Optional.empty();
    private ScheduledFuture<?> next;
    private boolean closed;

    private AcmeRenewal(String name, TlsConfig tls, TlsListener listener, Clock clock) {
        this.name = name;
        this.tls = tls;
        this.acme = tls.acme();
        this.listener = listener;
        this.clock = clock;
    }

    /**
     * Before the listener loads its files, with {@code tls.acme} set: when there are none yet, writes a self-signed stand-in for the names, so
     * the listener starts (clients see an untrusted certificate for the minutes the first order takes).
     */
    public static void standInIfMissing(String name, TlsConfig tls) throws IOException {
        if (tls.acme() == null) {
            return;
        }
        Path certificate = Path.of(tls.certificate());
        Path key = Path.of(tls.key());
        if (CertificateFiles.present(certificate, key)) {
            return;
        }
        try {
            KeyPair pair = CertificateFiles.newKeyPair();
            X509Certificate standIn = CertificateFiles.standIn(pair, tls.acme().domainsOrEmpty(), Instant.now());
            CertificateFiles.writeAtomically(key, CertificateFiles.keyPem(pair), true);
            CertificateFiles.writeAtomically(certificate, CertificateFiles.certificatesPem(List.of(standIn)), false);
        } catch (GeneralSecurityException e) {
            throw new IOException(name + ": cannot make a stand-in certificate: " + e.getMessage(), e);
        }
        log.info("{}: no certificate yet in {}; serving a self-signed stand-in until the ACME CA issues one", name,
                certificate);
    }

    /**
     * Starts keeping {@code listener}'s certificate current when {@code tls.acme} is set (null otherwise): the first
     * check runs at once; it stops when the listener closes.
     */
    public static AcmeRenewal start(String name, TlsConfig tls, TlsListener listener) {
        if (tls.acme() == null) {
            return null;
        }
        AcmeRenewal renewal = new AcmeRenewal(name, tls, listener, Clock.systemUTC());
        listener.onClose(renewal::close);
        renewal.schedule(Duration.ZERO);
        return renewal;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (next != null) {
            next.cancel(false);
        }
        AcmeStatus.remove(name);
    }

    private synchronized void schedule(Duration delay) {
        if (!closed) {
            next = ORDERS.schedule(this::check, Math.max(0, delay.toMillis()), TimeUnit.MILLISECONDS);
        }
    }

    /** On the ACME thread: renews when due, else sleeps until it is. */
    private void check() {
        Instant now = clock.instant();
        X509Certificate current;
        try {
            current = PemFiles.certificates(tls.certificate()).get(0);
        } catch (TlsFileException | RuntimeException e) {
            current = null; // unreadable: obtain a new one
        }
        Instant due = current == null ? now : due(current, acme, renewalWindowStart);
        if (current != null) {
            AcmeStatus.serving(name, current.getNotAfter().toInstant());
        }
        if (due.isAfter(now)) {
            log.debug("{}: certificate good until {}; renewal due {}", name, current.getNotAfter().toInstant(), due);
            schedule(Duration.between(now, due));
            return;
        }
        try {
            AcmeIssuer.Issued issued = AcmeIssuer.obtain(acme, accountKeyFile(tls));
            X509Certificate leaf = issued.chain().get(0);
            listener.replaceFiles(() -> {
                CertificateFiles.writeAtomically(Path.of(tls.key()), CertificateFiles.keyPem(issued.key()), true);
                try {
                    CertificateFiles.writeAtomically(Path.of(tls.certificate()),
                            CertificateFiles.certificatesPem(issued.chain()), false);
                } catch (GeneralSecurityException e) {
                    throw new IOException(e.getMessage(), e);
                }
            });
            renewalWindowStart = issued.renewalWindowStart();
            retry = FIRST_RETRY;
            AcmeStatus.issued(name, leaf.getNotAfter().toInstant());
            log.info("{}: ACME certificate for {} issued by {}, valid until {}", name, acme.domainsOrEmpty(),
                    leaf.getIssuerX500Principal().getName(), leaf.getNotAfter().toInstant());
            schedule(Duration.between(clock.instant(), due(leaf, acme, renewalWindowStart)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) { // the CA down, refusing, or a file not writable: keep what is served
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            AcmeStatus.failed(name, reason);
            log.warn("{}: ACME order for {} failed, still serving {} (retrying in {} min): {}", name,
                    acme.domainsOrEmpty(), current == null ? "nothing" : "the certificate valid until "
                            + current.getNotAfter().toInstant(), retry.toMinutes(), reason);
            schedule(retry);
            retry = retry.multipliedBy(2).compareTo(LAST_RETRY) > 0 ? LAST_RETRY : retry.multipliedBy(2);
        }
    }

    /**
     * When {@code current} is to be renewed: now for the stand-in or a certificate whose names differ from the
     * configured ones; otherwise {@code renewBeforeDays} ahead of expiry or at two thirds of its life, whichever comes
     * first, or the start of the CA's renewal window when that is earlier still.
     */
    static Instant due(X509Certificate current, AcmeConfig acme, Optional<Instant> renewalWindowStart) {
        if (CertificateFiles.isStandIn(current)
                || !names(current).equals(lower(acme.domainsOrEmpty()))) {
            return Instant.MIN;
        }
        Instant notBefore = current.getNotBefore().toInstant();
        Instant notAfter = current.getNotAfter().toInstant();
        Instant twoThirds = notBefore.plus(Duration.between(notBefore, notAfter).multipliedBy(2).dividedBy(3));
        Instant ahead = notAfter.minus(acme.renewBefore());
        Instant due = ahead.isBefore(twoThirds) ? ahead : twoThirds;
        return renewalWindowStart.filter(w -> w.isBefore(due)).orElse(due);
    }

    private static Set<String> names(X509Certificate certificate) {
        Set<String> names = new HashSet<>();
        try {
            Collection<List<?>> sans = certificate.getSubjectAlternativeNames();
            if (sans != null) {
                for (List<?> san : sans) {
                    if (Integer.valueOf(2).equals(san.get(0))) { // dNSName
                        names.add(String.valueOf(san.get(1)).toLowerCase(Locale.ROOT));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            // no names: renewed as if they differed
        }
        return names;
    }

    private static Set<String> lower(List<String> domains) {
        Set<String> out = new HashSet<>();
        domains.forEach(d -> out.add(d.toLowerCase(Locale.ROOT)));
        return out;
    }

    /** The ACME account's key, beside the certificate's key: {@code <key>.acme-account.pem}. */
    static Path accountKeyFile(TlsConfig tls) {
        Path key = Path.of(tls.key()).toAbsolutePath();
        return key.resolveSibling(key.getFileName() + ".acme-account.pem");
    }
}
