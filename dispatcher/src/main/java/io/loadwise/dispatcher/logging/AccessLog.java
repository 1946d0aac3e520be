package io.loadwise.dispatcher.logging;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per finished TCP tunnel or HTTP request on logger {@value #LOGGER}, which
 * {@link LoggingSetup} sends to {@code logging.accessLog} (and nowhere else) when that is set. Nothing is
 * formatted unless the logger is enabled.
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

    /** An HTTP request ended; {@code node} is {@code null} when the dispatcher answered by itself. */
    public static void http(String clientAddr, String method, String uri, int status, String node, long bytes,
            long durationMillis) {
        if (log.isInfoEnabled()) {
            log.info("{} \"{} {}\" {} {} {} {}ms", clientAddr, method, uri, status, node == null ? "-" : node, bytes,
                    durationMillis);
        }
    }
}
