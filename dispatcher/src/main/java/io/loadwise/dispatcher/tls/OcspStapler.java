package io.loadwise.dispatcher.tls;

import io.netty.handler.ssl.SslContext;
import java.net.URI;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OCSP stapling for one TLS listener ({@code tls.ocspStapling}): per certificate, a response fetched from the
 * responder the certificate names ({@link OcspFetch}), handed to each handshake that serves that certificate, and
 * refreshed halfway to its {@code nextUpdate}. A staple past its {@code nextUpdate} is never served: a handshake then
 * gets none, which clients treat as "no information" (a stale one they would reject). A failed fetch keeps the staple
 * while it is current and tries again after 1 minute, doubling to 1 hour. Fetches run on one daemon thread shared by
 * every listener, never on an event loop; a handshake only reads a map.
 */
public final class OcspStapler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OcspStapler.class);
    private static final ScheduledExecutorService FETCHES = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "loadwise-ocsp");
        thread.setDaemon(true);
        return thread;
    });
    static final Duration FIRST_RETRY = Duration.ofMinutes(1);
    static final Duration LAST_RETRY = Duration.ofHours(1);
    /** Refreshed no later than this before {@code nextUpdate}, however short its life. */
    static final Duration MARGIN = Duration.ofSeconds(10);

    /** One certificate's staple and its refresh. */
    private final class Tracked {
        final X509Certificate leaf;
        final X509Certificate issuer;
        final URI responder;
        volatile OcspFetch.Staple staple;
        Duration retry = FIRST_RETRY;
        ScheduledFuture<?> next;

        Tracked(X509Certificate leaf, X509Certificate issuer, URI responder) {
            this.leaf = leaf;
            this.issuer = issuer;
            this.responder = responder;
        }

        void refresh() {
            Instant now = clock.instant();
            try {
                OcspFetch.Staple fresh = OcspFetch.fetch(responder, leaf, issuer, now);
                boolean first = staple == null;
                staple = fresh;
                retry = FIRST_RETRY;
                if (first) {
                    log.info("{}: stapling OCSP for {}: {}, next update {}", name, subject(), fresh.status(),
                            fresh.nextUpdate());
                }
                Instant half = fresh.thisUpdate().plus(Duration.between(fresh.thisUpdate(), fresh.nextUpdate()).dividedBy(2));
                Instant latest = fresh.nextUpdate().minus(MARGIN);
                schedule(this, Duration.between(clock.instant(), half.isBefore(latest) ? half : latest));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                OcspFetch.Staple current = staple;
                log.warn("{}: OCSP for {} from {} failed ({}); {}; retrying in {} s", name, subject(), responder,
                        e.getMessage() == null ? e.toString() : e.getMessage(), current == null ? "no staple served"
                                : "the staple in use stays until " + current.nextUpdate(), retry.toSeconds());
                schedule(this, retry);
                retry = retry.multipliedBy(2).compareTo(LAST_RETRY) > 0 ? LAST_RETRY : retry.multipliedBy(2);
            }
        }

        String subject() {
            return leaf.getSubjectX500Principal().getName();
        }
    }

    private final String name;
    private final Clock clock;
    /** By certificate; entries for certificates no longer served are dropped at {@link #track}. */
    private final Map<X509Certificate, Tracked> tracked = new ConcurrentHashMap<>();
    /** The contexts of the {@link ServerTls} in use, to their certificate. */
    private volatile Map<SslContext, Tracked> byContext = Map.of();
    private boolean closed;

    public OcspStapler(String name) {
        this(name, Clock.systemUTC());
    }

    OcspStapler(String name, Clock clock) {
        this.name = name;
        this.clock = clock;
    }

    /**
     * From now on staples are for {@code tls}'s certificates (at start and after each reload): new ones are fetched
     * at once, those no longer served are forgotten.
     */
    public synchronized void track(ServerTls tls) {
        if (closed) {
            return;
        }
        Map<SslContext, Tracked> contexts = new HashMap<>();
        Map<X509Certificate, Tracked> keep = new HashMap<>();
        for (Map.Entry<SslContext, List<X509Certificate>> e : tls.chains().entrySet()) {
            List<X509Certificate> chain = e.getValue();
            X509Certificate leaf = chain.get(0);
            Optional<URI> responder = OcspFetch.responder(leaf);
            if (chain.size() < 2 || responder.isEmpty()) {
                log.warn("{}: no OCSP stapling for {}: {}", name, leaf.getSubjectX500Principal().getName(),
                        responder.isEmpty() ? "the certificate names no OCSP responder"
                                : "its file holds no issuer certificate after it (the chain is needed to ask)");
                continue;
            }
            Tracked t = tracked.computeIfAbsent(leaf, l -> {
                Tracked fresh = new Tracked(l, chain.get(1), responder.get());
                schedule(fresh, Duration.ZERO);
                return fresh;
            });
            contexts.put(e.getKey(), t);
            keep.put(leaf, t);
        }
        tracked.forEach((leaf, t) -> {
            if (!keep.containsKey(leaf) && t.next != null) {
                t.next.cancel(false);
            }
        });
        tracked.keySet().retainAll(keep.keySet());
        byContext = Map.copyOf(contexts);
    }

    /** The response to staple to a handshake served from {@code context}, or null: none, or none still current. */
    public byte[] staple(SslContext context) {
        Tracked t = byContext.get(context);
        OcspFetch.Staple s = t == null ? null : t.staple;
        return s == null || !s.nextUpdate().isAfter(clock.instant()) ? null : s.der();
    }

    private synchronized void schedule(Tracked t, Duration delay) {
        if (!closed) {
            t.next = FETCHES.schedule(t::refresh, Math.max(0, delay.toMillis()), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        tracked.values().forEach(t -> {
            if (t.next != null) {
                t.next.cancel(false);
            }
        });
        tracked.clear();
        byContext = Map.of();
    }
}
