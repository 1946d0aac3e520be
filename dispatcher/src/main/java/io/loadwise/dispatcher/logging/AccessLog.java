package io.loadwise.dispatcher.logging;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per finished TCP tunnel or HTTP request on logger {@value #LOGGER} at INFO, which
 * {@link LoggingSetup} sends to {@code logging.accessLog} (and nowhere else) when that is set. The event loop
 * only fills an {@link AccessRecord}, and only when the logger is enabled or the admin console watches the last
 * requests ({@link #keepRecent()}); {@link AccessLogWriter}'s thread
 * formats it ({@link #format}: {@code loadwise} unless {@link LoggingSetup} says otherwise) and logs the line, so
 * no event loop waits for the disk. What the client sent is escaped, so a request cannot forge or split lines.
 */
public final class AccessLog {

    public static final String LOGGER = "loadwise.access";
    private static final Logger log = LoggerFactory.getLogger(LOGGER);
    private static volatile boolean writerStarted;
    private static final AccessLogWriter WRITER = new AccessLogWriter(AccessLogWriter.CAPACITY, new LoadwiseLine(),
            log::info, log::isInfoEnabled, new RecentRequests(RecentRequests.CAPACITY)); // started at the first record
    /** How long the last requests are kept after the console last asked for them (its page asks every 2 s). */
    public static final long RECENT_LEASE_MILLIS = 5 * 60_000;

    private AccessLog() {
    }

    /**
     * Whether the event loops make records: when the access log is on, or the console watches recent requests. When
     * neither wants them, a request pays this check and nothing else.
     */
    public static boolean enabled() {
        return WRITER.keepsRecent() || log.isInfoEnabled();
    }

    /**
     * For the next {@value #RECENT_LEASE_MILLIS} ms, records are made for every request whether the access log is
     * on or not, and the writer keeps the last {@value RecentRequests#CAPACITY} in {@link #recent()}: the admin
     * console calls it whenever its live request page or API asks, so a dispatcher nobody watches makes no records.
     */
    public static void keepRecent() {
        WRITER.keepRecentFor(RECENT_LEASE_MILLIS * 1_000_000);
        startWriter();
    }

    /** The last requests kept while someone watched ({@link #keepRecent()}); empty before the first watch. */
    public static RecentRequests recent() {
        return WRITER.recent();
    }

    /** The line format from now on: one of {@link io.loadwise.dispatcher.config.AccessLogConfig#FORMATS}. */
    static void format(String format) {
        WRITER.format(AccessLineFormat.named(format));
    }

    /** How the appender's buffered lines are pushed out when the writer's queue has run dry. */
    static void flushWith(java.io.Flushable flush) {
        WRITER.flushWith(flush);
    }

    /** Queues a finished request's record for writing; never blocks. Call only when {@link #enabled()}. */
    public static void write(AccessRecord record) {
        if (!writerStarted) {
            startWriter(); // at the first record: without an access log the thread never runs
        }
        WRITER.offer(record);
    }

    private static synchronized void startWriter() {
        if (!writerStarted) {
            WRITER.start();
            writerStarted = true;
        }
    }

    /**
     * Waits, at most {@code timeoutMillis}, until every record queued so far is in the file: at shutdown, and for
     * tests that switch the log's appender between requests.
     *
     * @return whether everything was written in time
     */
    public static boolean drain(long timeoutMillis) {
        return WRITER.drain(timeoutMillis);
    }

    /** Records dropped because the writer fell {@value AccessLogWriter#CAPACITY} records behind. */
    public static long dropped() {
        return WRITER.dropped();
    }

    /** A TCP tunnel ended; {@code node} is {@code null} when no node could be connected. */
    public static void tcp(String clientAddr, String cluster, String node, long bytesIn, long bytesOut,
            long durationMillis) {
        if (enabled()) {
            AccessRecord r = new AccessRecord();
            r.startMillis = System.currentTimeMillis() - durationMillis;
            r.client = clientAddr;
            r.cluster = cluster;
            r.node = node;
            r.protocol = "tcp";
            r.bytesIn = bytesIn;
            r.bytesOut = bytesOut;
            r.totalMillis = durationMillis;
            write(r);
        }
    }

    /**
     * An HTTP request ended. {@code method} and {@code uri} are {@code null} when the request head could
     * not be read, {@code node} when the dispatcher answered by itself, and {@code bytes} is negative
     * when the response size is not known; each is then written as {@code -}.
     */
    public static void http(String clientAddr, String method, String uri, int status, String node, long bytes,
            long durationMillis) {
        if (enabled()) {
            AccessRecord r = new AccessRecord();
            r.startMillis = System.currentTimeMillis() - durationMillis;
            r.client = clientAddr;
            r.method = method;
            r.target = uri;
            r.status = status;
            r.node = node;
            r.bytesOut = bytes;
            r.totalMillis = durationMillis;
            write(r);
        }
    }

    /**
     * {@code text} with control characters, {@code "} and {@code \} written as {@code \xNN}; {@code -}
     * for {@code null}. Allocates only when something needs escaping.
     */
    static String escape(String text) {
        if (text == null) {
            return "-";
        }
        int i = 0;
        while (i < text.length() && !needsEscape(text.charAt(i))) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, i);
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (needsEscape(c)) {
                out.append("\\x").append(Character.forDigit(c >> 4 & 0xf, 16)).append(Character.forDigit(c & 0xf, 16));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean needsEscape(char c) {
        return c < 0x20 || c == 0x7f || c == '"' || c == '\\';
    }
}
