package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.http.codec.HttpSyntax;
import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Header rewriting between client and node (RFC 9110 §7.6): hop-by-hop headers are dropped, the
 * forwarding headers ({@code X-Forwarded-*}, {@code Forwarded}) written, and the message framing fixed
 * for the other side.
 *
 * <p>The headers that frame a message ({@code Content-Length}, {@code Transfer-Encoding}) and
 * {@code Host} are never removed because a {@code Connection} header names them: that is how a client
 * would make the proxy send a body the node reads as a second, unseen request. A request's framing is
 * written from what the decoder decided ({@link #applyFraming}), after every other rewrite.
 */
final class ProxyHeaders {

    static final AsciiString X_FORWARDED_FOR = AsciiString.cached("x-forwarded-for");
    static final AsciiString X_FORWARDED_PROTO = AsciiString.cached("x-forwarded-proto");
    static final AsciiString X_FORWARDED_HOST = AsciiString.cached("x-forwarded-host");
    static final AsciiString FORWARDED = AsciiString.cached("forwarded");
    static final AsciiString LOAD_REPORT = AsciiString.cached(LoadReportSink.HEADER);
    private static final AsciiString PROXY_CONNECTION = AsciiString.cached("proxy-connection");
    /** What {@link #hopByHopKind} says a field is; or-ed together over a head. */
    private static final int CONNECTION_FIELD = 1;
    private static final int KEEP_ALIVE_FIELD = 2;
    private static final int TE_FIELD = 4;
    private static final int TRAILER_FIELD = 8;
    private static final int UPGRADE_FIELD = 16;
    private static final int PROXY_FIELD = 32;

    private ProxyHeaders() {
    }

    /**
     * Rewrites a client request for the node: HTTP/1.1 (keep-alive to the node whatever the client
     * speaks), no hop-by-hop or load-report headers, the forwarding headers written, and the body framed
     * as the decoder read it.
     *
     * <p>{@code X-Forwarded-For} and {@code Forwarded} from a client that is one of the trusted proxies are
     * appended to; from anyone else they are replaced, since a client could write anything there.
     * {@code X-Forwarded-Proto} and {@code -Host} are always set: this dispatcher is the edge. This hop's
     * values come from {@code hop}, the client connection's, made once.
     */
    static void prepareRequest(ProxiedRequest request, ForwardingHeaders hop, boolean upgrade) {
        HttpHeaders headers = request.headers();
        boolean trustedSource = hop.trustedSource();
        stripHopByHop(headers, upgrade);
        headers.remove(LOAD_REPORT);
        CharSequence host = host(headers);
        String priorFor = trustedSource ? joined(headers, X_FORWARDED_FOR) : null;
        headers.set(X_FORWARDED_FOR, priorFor == null ? hop.forwardedFor() : priorFor + ", " + hop.clientIp());
        String priorForwarded = trustedSource ? joined(headers, FORWARDED) : null;
        AsciiString element = hop.forwardedElement(host);
        headers.set(FORWARDED, priorForwarded == null ? element : priorForwarded + ", " + element);
        headers.set(X_FORWARDED_PROTO, hop.proto());
        if (host != null) {
            headers.set(X_FORWARDED_HOST, host);
        } else {
            headers.remove(X_FORWARDED_HOST);
        }
        if (upgrade) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE);
        }
        applyFraming(request);
        request.setProtocolVersion(HttpVersion.HTTP_1_1);
    }

    /**
     * The request's Host as the map holds it (no String copy), or {@code null}. The decoder refuses a
     * repeated Host; should a map hold several anyway, the first, as {@link HttpHeaders#get} says.
     */
    private static CharSequence host(HttpHeaders headers) {
        Iterator<? extends CharSequence> values = headers.valueCharSequenceIterator(HttpHeaderNames.HOST);
        if (!values.hasNext()) {
            return null;
        }
        CharSequence host = values.next();
        return values.hasNext() ? headers.get(HttpHeaderNames.HOST) : host;
    }

    /** Writes the framing the decoder decided: one Transfer-Encoding: chunked, one Content-Length, or none. */
    static void applyFraming(ProxiedRequest request) {
        HttpHeaders headers = request.headers();
        if (request.chunked()) {
            headers.remove(HttpHeaderNames.CONTENT_LENGTH);
            headers.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        } else {
            headers.remove(HttpHeaderNames.TRANSFER_ENCODING);
            if (request.bodyLength() > 0) {
                headers.set(HttpHeaderNames.CONTENT_LENGTH, request.bodyLength());
            }
        }
    }

    /** Every value of {@code name} as one comma-separated list, or {@code null} when there is none. */
    private static String joined(HttpHeaders headers, AsciiString name) {
        List<String> values = headers.getAll(name);
        if (values.isEmpty()) {
            return null;
        }
        return values.size() == 1 ? values.get(0) : String.join(", ", values);
    }

    /**
     * This hop's {@code Forwarded} element (RFC 7239 §4): {@code for=…;proto=http;host=…}, {@code proto=https}
     * when the client reached a TLS listener, no {@code host} when {@code host} is null or empty.
     */
    static String forwardedElement(String clientIp, String host, boolean https) {
        StringBuilder element = new StringBuilder(48).append("for=");
        if (clientIp.indexOf(':') >= 0) {
            element.append("\"[").append(clientIp).append("]\"");
        } else {
            element.append(clientIp);
        }
        element.append(https ? ";proto=https" : ";proto=http");
        if (host != null && !host.isEmpty()) {
            element.append(";host=");
            if (HttpSyntax.isToken(host)) {
                element.append(host);
            } else {
                element.append('"').append(host).append('"'); // the decoder admitted no quote or backslash
            }
        }
        return element.toString();
    }

    /**
     * Removes from a trailer section what may not travel there or beyond this hop: framing, routing and
     * hop-by-hop fields (RFC 9110 §6.5.1) and load reports.
     */
    static void stripTrailers(HttpHeaders trailers) {
        if (trailers.isEmpty()) {
            return;
        }
        trailers.remove(HttpHeaderNames.CONTENT_LENGTH);
        trailers.remove(HttpHeaderNames.TRANSFER_ENCODING);
        trailers.remove(HttpHeaderNames.HOST);
        trailers.remove(HttpHeaderNames.CONNECTION);
        trailers.remove(HttpHeaderNames.KEEP_ALIVE);
        trailers.remove(HttpHeaderNames.TE);
        trailers.remove(HttpHeaderNames.TRAILER);
        trailers.remove(HttpHeaderNames.UPGRADE);
        trailers.remove(PROXY_CONNECTION);
        trailers.remove(LOAD_REPORT);
    }

    /**
     * Rewrites a node response for the client and returns whether the client connection stays open.
     *
     * @param keepAlive what the client asked for
     * @param http10 the client speaks HTTP/1.0 (no chunked encoding)
     * @param bodyless the response has no body whatever its headers (HEAD request, 1xx, 204, 304)
     */
    static boolean prepareResponse(HttpResponse response, boolean keepAlive, boolean http10, boolean bodyless) {
        HttpHeaders headers = response.headers();
        boolean switching = response.status().code() == 101;
        stripHopByHop(headers, switching);
        response.setProtocolVersion(HttpVersion.HTTP_1_1);
        if (switching) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE);
            return true;
        }
        if (!bodyless) {
            boolean chunked = HttpUtil.isTransferEncodingChunked(response);
            if (http10 && chunked) {
                headers.remove(HttpHeaderNames.TRANSFER_ENCODING);
                keepAlive = false;
            } else if (!chunked && !HttpUtil.isContentLengthSet(response)) {
                // The node delimits the body by closing its connection: chunk it for a 1.1 client.
                if (http10) {
                    keepAlive = false;
                } else {
                    HttpUtil.setTransferEncodingChunked(response, true);
                }
            }
        }
        if (!keepAlive) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (http10) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        return keepAlive;
    }

    /**
     * Removes Connection, the headers it names, Keep-Alive, Proxy-*, TE, Trailer and (unless kept) Upgrade.
     * One pass over the names finds which of them are there; only those are looked up and removed (most
     * requests carry none, most responses only Connection).
     */
    static void stripHopByHop(HttpHeaders headers, boolean keepUpgrade) {
        int present = 0;
        List<CharSequence> proxyHeaders = null; // removed after the iteration, which must not see the map change
        Iterator<Map.Entry<CharSequence, CharSequence>> it = headers.iteratorCharSequence();
        while (it.hasNext()) {
            CharSequence name = it.next().getKey();
            int kind = hopByHopKind(name);
            if (kind == PROXY_FIELD) {
                if (proxyHeaders == null) {
                    proxyHeaders = new ArrayList<>(2);
                }
                proxyHeaders.add(name);
            }
            present |= kind;
        }
        if (present == 0) {
            return;
        }
        if ((present & CONNECTION_FIELD) != 0) {
            List<String> named = null;
            Iterator<? extends CharSequence> values = headers.valueCharSequenceIterator(HttpHeaderNames.CONNECTION);
            while (values.hasNext()) {
                named = namedIn(values.next(), keepUpgrade, named);
            }
            if (named != null) {
                for (int i = 0; i < named.size(); i++) {
                    headers.remove(named.get(i));
                }
            }
            headers.remove(HttpHeaderNames.CONNECTION);
        }
        if ((present & KEEP_ALIVE_FIELD) != 0) {
            headers.remove(HttpHeaderNames.KEEP_ALIVE);
        }
        if ((present & TE_FIELD) != 0) {
            headers.remove(HttpHeaderNames.TE);
        }
        if ((present & TRAILER_FIELD) != 0) {
            headers.remove(HttpHeaderNames.TRAILER);
        }
        if ((present & UPGRADE_FIELD) != 0 && !keepUpgrade) {
            headers.remove(HttpHeaderNames.UPGRADE);
        }
        if (proxyHeaders != null) {
            for (int i = 0; i < proxyHeaders.size(); i++) {
                headers.remove(proxyHeaders.get(i)); // Proxy-Connection among them
            }
        }
    }

    /** Which hop-by-hop field {@code name} is (case-insensitive), or 0 for an end-to-end one. */
    private static int hopByHopKind(CharSequence name) {
        int length = name.length();
        if (length > 6 && AsciiString.regionMatches(name, true, 0, "proxy-", 0, 6)) {
            return PROXY_FIELD;
        }
        return switch (length) {
            case 2 -> AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.TE) ? TE_FIELD : 0;
            case 7 -> AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.TRAILER) ? TRAILER_FIELD
                    : AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.UPGRADE) ? UPGRADE_FIELD : 0;
            case 10 -> AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.CONNECTION) ? CONNECTION_FIELD
                    : AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.KEEP_ALIVE) ? KEEP_ALIVE_FIELD : 0;
            default -> 0;
        };
    }

    /**
     * Adds the header names a Connection value lists to {@code named} (created when needed). The usual
     * tokens (keep-alive, close, upgrade) name no header and cost no allocation. Framing headers and Host
     * are never named: removing them would change where the message ends, or where it goes.
     */
    private static List<String> namedIn(CharSequence connection, boolean keepUpgrade, List<String> named) {
        int length = connection.length();
        int start = 0;
        while (start < length) {
            int end = start;
            while (end < length && connection.charAt(end) != ',') {
                end++;
            }
            int from = start;
            int to = end;
            while (from < to && connection.charAt(from) == ' ') {
                from++;
            }
            while (to > from && connection.charAt(to - 1) == ' ') {
                to--;
            }
            if (to > from && !isToken(connection, from, to, HttpHeaderValues.KEEP_ALIVE)
                    && !isToken(connection, from, to, HttpHeaderValues.CLOSE)
                    && !isToken(connection, from, to, HttpHeaderNames.TRANSFER_ENCODING)
                    && !isToken(connection, from, to, HttpHeaderNames.CONTENT_LENGTH)
                    && !isToken(connection, from, to, HttpHeaderNames.HOST)
                    && !(keepUpgrade && isToken(connection, from, to, HttpHeaderValues.UPGRADE))) {
                if (named == null) {
                    named = new ArrayList<>(2);
                }
                named.add(connection.subSequence(from, to).toString());
            }
            start = end + 1;
        }
        return named;
    }

    private static boolean isToken(CharSequence value, int from, int to, AsciiString token) {
        return to - from == token.length() && AsciiString.regionMatches(value, true, from, token, 0, to - from);
    }
}
