package io.loadwise.console.web;

import io.loadwise.dispatcher.control.RoutedListenerStatus.ProxyProtocolCounts;
import io.loadwise.dispatcher.metrics.QuicCounts;

/**
 * What a listener's edge protocols counted, as one line each under its card: PROXY headers applied and refused (by
 * reason), and QUIC connections and streams. The same figures as {@code loadwise_*_proxy_protocol_total} and
 * {@code loadwise_listener_quic_*}, for an operator looking at the console rather than at Prometheus.
 */
final class EdgeCounts {

    private EdgeCounts() {
    }

    /** The PROXY line, or "" when the listener takes no PROXY headers. */
    static String proxyProtocol(ProxyProtocolCounts counts) {
        if (counts == null) {
            return "";
        }
        long refused = counts.untrusted() + counts.invalid() + counts.timeout();
        return "<p class=\"proxy-protocol\">PROXY headers: <span class=\"proxy-accepted\">" + counts.accepted()
                + "</span> applied · <span class=\"proxy-refused\">" + refused + "</span> connections closed"
                + " (untrusted source " + counts.untrusted() + ", invalid " + counts.invalid() + ", too slow "
                + counts.timeout() + ")</p>";
    }

    /** The HTTP/3 line, or "" when the listener serves no HTTP/3. */
    static String http3(QuicCounts counts) {
        if (counts == null) {
            return "";
        }
        return "<p class=\"http3\">HTTP/3: <span class=\"quic-open\">" + counts.open() + "</span> QUIC connections open"
                + " of " + counts.connections() + " accepted · " + counts.streams() + " streams · refused: "
                + counts.connectionsRefused() + " connections, " + counts.streamsRefused() + " streams, "
                + counts.invalidTokens() + " invalid tokens · " + counts.excessiveLoad() + " closed for excessive load"
                + "</p>";
    }
}
