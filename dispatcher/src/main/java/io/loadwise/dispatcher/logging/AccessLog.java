package io.loadwise.dispatcher.logging;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per finished TCP tunnel or HTTP request on logger {@value #LOGGER} at INFO, which
 * {@link LoggingSetup} sends to {@code logging.accessLog} (and nowhere else) when that is set. Nothing is
 * formatted unless the logger is enabled. What the client sent (method, target) is escaped, so a
 * request cannot forge or split lines.
 */
public final class AccessLog {

    public static final String LOGGER = "loadwise.access";
    private static final Logger log = LoggerFactory.getLogger(LOGGER);

    private AccessLog() {
    }

    public static boolean enabled() {
        return log.isInfoEnabled();
    }

    /** A TCP tunnel ended; {@code node} is {@code null} when no node could be connected. */
    public static void tcp(String clientAddr, String cluster, String node, long bytesIn, long bytesOut,
            long durationMillis) {
        if (log.isInfoEnabled()) {
            log.info("{} tcp {} {} in={} out={} {}ms", clientAddr, cluster, node == null ? "-" : node, bytesIn,
                    bytesOut, durationMillis);
        }
    }

    /**
     * An HTTP request ended. {@code method} and {@code uri} are {@code null} when the request head could
     * not be read, {@code node} when the dispatcher answered by itself, and {@code bytes} is negative
     * when the response size is not known; each is then written as {@code -}.
     */
    public static void http(String clientAddr, String method, String uri, int status, String node, long bytes,
            long durationMillis) {
        if (log.isInfoEnabled()) {
            log.info("{} \"{} {}\" {} {} {} {}ms", clientAddr, escape(method), escape(uri), status,
                    node == null ? "-" : node, bytes < 0 ? "-" : Long.toString(bytes), durationMillis);
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
