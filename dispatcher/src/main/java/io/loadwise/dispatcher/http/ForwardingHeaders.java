package io.loadwise.dispatcher.http;

import io.netty.util.AsciiString;

/**
 * This hop's forwarding header values for one client connection ({@code X-Forwarded-For},
 * {@code X-Forwarded-Proto}, the {@code Forwarded} element), made once instead of once per request.
 *
 * <p>Everything in them but the {@code Host} comes from the connection: the client's address and whether
 * it reached a TLS listener. The {@code Forwarded} element also names the request's host, so it is kept
 * for the last host seen: a keep-alive client almost always sends the same one. The values are
 * {@link AsciiString}s, which the head encoder copies as bytes. Confined to the connection's event loop.
 */
final class ForwardingHeaders {

    private static final AsciiString HTTP = AsciiString.cached("http");
    private static final AsciiString HTTPS = AsciiString.cached("https");

    private final String clientIp;
    private final AsciiString clientIpValue;
    private final boolean https;
    /** The client is one of the cluster's trusted proxies: its own forwarding headers are kept and appended to. */
    private final boolean trustedSource;
    /** The element of a request without a Host; made when first needed. */
    private AsciiString elementWithoutHost;
    /** The host of {@link #lastElement}; {@code null} before the first request with a host. */
    private CharSequence lastHost;
    private AsciiString lastElement;

    /**
     * @param https the client reached a TLS listener, and the node is told so
     * @param trustedSource the client is a trusted proxy
     */
    ForwardingHeaders(String clientIp, boolean https, boolean trustedSource) {
        this.clientIp = clientIp;
        this.clientIpValue = new AsciiString(clientIp);
        this.https = https;
        this.trustedSource = trustedSource;
    }

    boolean trustedSource() {
        return trustedSource;
    }

    String clientIp() {
        return clientIp;
    }

    /** The {@code X-Forwarded-For} value this hop writes for a client that is not trusted. */
    AsciiString forwardedFor() {
        return clientIpValue;
    }

    /** The {@code X-Forwarded-Proto} value. */
    AsciiString proto() {
        return https ? HTTPS : HTTP;
    }

    /** This hop's {@code Forwarded} element for a request to {@code host} ({@code null}: none). */
    AsciiString forwardedElement(CharSequence host) {
        if (host == null) {
            if (elementWithoutHost == null) {
                elementWithoutHost = new AsciiString(ProxyHeaders.forwardedElement(clientIp, null, https));
            }
            return elementWithoutHost;
        }
        if (lastHost == null || !AsciiString.contentEquals(lastHost, host)) {
            String hostText = host.toString();
            lastElement = new AsciiString(ProxyHeaders.forwardedElement(clientIp, hostText, https));
            lastHost = hostText;
        }
        return lastElement;
    }
}
