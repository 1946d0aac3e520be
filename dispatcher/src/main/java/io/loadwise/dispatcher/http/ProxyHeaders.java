package io.loadwise.dispatcher.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
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
 * {@code X-Forwarded-*} headers added, and the message framing fixed for the other side.
 *
 * <p>{@code Transfer-Encoding} is the one hop-by-hop header kept: the codecs frame each side
 * themselves and read it to decide between chunked and length-delimited bodies.
 */
final class ProxyHeaders {

    static final AsciiString X_FORWARDED_FOR = AsciiString.cached("x-forwarded-for");
    static final AsciiString X_FORWARDED_PROTO = AsciiString.cached("x-forwarded-proto");
    static final AsciiString X_FORWARDED_HOST = AsciiString.cached("x-forwarded-host");
    static final AsciiString LOAD_REPORT = AsciiString.cached(LoadReportSink.HEADER);
    private static final AsciiString PROXY_CONNECTION = AsciiString.cached("proxy-connection");
    private static final AsciiString HTTP = AsciiString.cached("http");

    private ProxyHeaders() {
    }

    /** {@code Upgrade} requested: an {@code Upgrade} header and the {@code upgrade} token in Connection. */
    static boolean isUpgrade(HttpRequest request) {
        HttpHeaders headers = request.headers();
        return headers.contains(HttpHeaderNames.UPGRADE)
                && headers.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true);
    }

    /**
     * Rewrites a client request for the node: HTTP/1.1 (keep-alive to the node whatever the client
     * speaks), no hop-by-hop or load-report headers, {@code X-Forwarded-For} appended, {@code -Proto}
     * and {@code -Host} set (this dispatcher is the edge, so it overrides what a client claims there).
     */
    static void prepareRequest(HttpRequest request, String clientIp, boolean upgrade) {
        HttpHeaders headers = request.headers();
        stripHopByHop(headers, upgrade);
        headers.remove(LOAD_REPORT);
        String prior = headers.get(X_FORWARDED_FOR);
        headers.set(X_FORWARDED_FOR, prior == null ? clientIp : prior + ", " + clientIp);
        headers.set(X_FORWARDED_PROTO, HTTP);
        String host = headers.get(HttpHeaderNames.HOST);
        if (host != null) {
            headers.set(X_FORWARDED_HOST, host);
        }
        if (upgrade) {
            headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE);
        }
        request.setProtocolVersion(HttpVersion.HTTP_1_1);
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

    /** Removes Connection, the headers it names, Keep-Alive, Proxy-*, TE, Trailer and (unless kept) Upgrade. */
    static void stripHopByHop(HttpHeaders headers, boolean keepUpgrade) {
        List<String> connection = headers.contains(HttpHeaderNames.CONNECTION)
                ? headers.getAll(HttpHeaderNames.CONNECTION) : List.of();
        for (int i = 0; i < connection.size(); i++) {
            for (String token : connection.get(i).split(",")) {
                String name = token.trim();
                if (!name.isEmpty() && !(keepUpgrade && HttpHeaderNames.UPGRADE.contentEqualsIgnoreCase(name))
                        && !HttpHeaderNames.TRANSFER_ENCODING.contentEqualsIgnoreCase(name)) {
                    headers.remove(name);
                }
            }
        }
        headers.remove(HttpHeaderNames.CONNECTION);
        headers.remove(HttpHeaderNames.KEEP_ALIVE);
        headers.remove(HttpHeaderNames.TE);
        headers.remove(HttpHeaderNames.TRAILER);
        headers.remove(PROXY_CONNECTION);
        if (!keepUpgrade) {
            headers.remove(HttpHeaderNames.UPGRADE);
        }
        List<CharSequence> proxyHeaders = null;
        Iterator<Map.Entry<CharSequence, CharSequence>> it = headers.iteratorCharSequence();
        while (it.hasNext()) {
            CharSequence name = it.next().getKey();
            if (name.length() > 6 && AsciiString.regionMatches(name, true, 0, "proxy-", 0, 6)) {
                if (proxyHeaders == null) {
                    proxyHeaders = new ArrayList<>(2);
                }
                proxyHeaders.add(name);
            }
        }
        if (proxyHeaders != null) {
            for (int i = 0; i < proxyHeaders.size(); i++) {
                headers.remove(proxyHeaders.get(i));
            }
        }
    }
}
