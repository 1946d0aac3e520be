package io.loadwise.dispatcher.acme;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Per listener with {@code acme}: certificates obtained, orders that failed, and when the certificate served now
 * expires; read by the admin API and Prometheus. An entry lives while its listener does.
 */
public final class AcmeStatus {

    /** A listener's figures at one moment; {@code notAfter} null before any certificate loaded. */
    public record Figures(long issued, long failed, Instant notAfter, String lastError) {
    }

    private static final class Entry {
        final AtomicLong issued = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        volatile Instant notAfter;
        volatile String lastError;
    }

    private static final Map<String, Entry> ENTRIES = new ConcurrentHashMap<>();

    private AcmeStatus() {
    }

    static void issued(String listener, Instant notAfter) {
        Entry e = entry(listener);
        e.issued.incrementAndGet();
        e.notAfter = notAfter;
        e.lastError = null;
    }

    static void failed(String listener, String error) {
        Entry e = entry(listener);
        e.failed.incrementAndGet();
        e.lastError = error;
    }

    static void serving(String listener, Instant notAfter) {
        entry(listener).notAfter = notAfter;
    }

    static void remove(String listener) {
        ENTRIES.remove(listener);
    }

    private static Entry entry(String listener) {
        return ENTRIES.computeIfAbsent(listener, l -> new Entry());
    }

    /** Every listener's figures, by name. */
    public static Map<String, Figures> figures() {
        Map<String, Figures> out = new TreeMap<>();
        ENTRIES.forEach((name, e) -> out.put(name, new Figures(e.issued.get(), e.failed.get(), e.notAfter, e.lastError)));
        return out;
    }
}
