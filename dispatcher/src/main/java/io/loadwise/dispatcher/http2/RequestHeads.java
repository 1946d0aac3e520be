package io.loadwise.dispatcher.http2;

import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AsciiString;
import java.util.Map;
import java.util.Set;

/**
 * The request checks HTTP/2 (RFC 9113 §8.2, §8.3) and HTTP/3 (RFC 9114 §4.2, §4.3: the same rules) share, made
 * before a stream becomes one HTTP/1.1 request to a node: everything those protocols tolerate but HTTP/1.1 would
 * read differently is refused (control characters or surrounding white space in a value, a path that is not
 * origin-form, connection-specific fields, pseudo-header fields missing, a {@code Host} other than
 * {@code :authority}). {@link StreamAdapter} uses it for h2 streams, {@code http3.Http3StreamAdapter} for h3.
 */
public final class RequestHeads {

    private static final Set<AsciiString> CONNECTION_SPECIFIC = Set.of(
            AsciiString.cached("connection"), AsciiString.cached("keep-alive"),
            AsciiString.cached("proxy-connection"), AsciiString.cached("transfer-encoding"),
            AsciiString.cached("upgrade"));
    private static final AsciiString HOST = AsciiString.cached("host");
    private static final AsciiString COOKIE = AsciiString.cached("cookie");
    private static final AsciiString TE = AsciiString.cached("te");
    /**
     * The request's HTTP/1.1 fields, not validated again: every name was checked (a token, lower case: by the h2
     * codec's {@code validateHeaders(true)}, or here for h3) and {@link RequestSyntax#validValue} every value, more
     * strictly than HTTP/1.1's checks would, before a field is added.
     */
    private static final HttpHeadersFactory REQUEST_HEADERS =
            DefaultHttpHeadersFactory.headersFactory().withValidation(false);

    private RequestHeads() {
    }

    /**
     * What became of a request head: a {@link #request()} to pass on (with {@link #declaredLength()}, -1 without
     * {@code content-length}), or a refusal: {@link #status()} to answer with, or none (null) for a malformed
     * request whose stream is reset.
     */
    public record Outcome(ProxiedRequest request, long declaredLength, HttpResponseStatus status, String reason) {

        static Outcome malformed(String reason) {
            return new Outcome(null, -1, null, reason);
        }

        static Outcome refused(HttpResponseStatus status, String reason) {
            return new Outcome(null, -1, status, reason);
        }

        public boolean accepted() {
            return request != null;
        }

        /** Malformed (RFC 9113 §8.1.1, RFC 9114 §4.1.2): a stream error, no response. */
        public boolean malformed() {
            return request == null && status == null;
        }
    }

    /**
     * Checks a request head and makes the HTTP/1.1 request of it.
     *
     * @param fields every field, pseudo-header fields included (skipped here)
     * @param endStream the head ends the stream: no body
     * @param checkNames whether each name must still be checked (a lower-case token): false when the codec did
     */
    public static Outcome read(CharSequence method, CharSequence scheme, CharSequence path, CharSequence authority,
            Iterable<Map.Entry<CharSequence, CharSequence>> fields, boolean endStream, boolean checkNames) {
        if (method == null) {
            return Outcome.malformed("no :method");
        }
        if (AsciiString.contentEquals(method, "CONNECT")) {
            return Outcome.refused(HttpResponseStatus.METHOD_NOT_ALLOWED, "CONNECT is not proxied");
        }
        if (scheme == null || path == null || path.length() == 0) {
            return Outcome.malformed("missing :scheme or :path");
        }
        if (!RequestSyntax.originForm(path, method)) {
            return Outcome.malformed("invalid :path");
        }
        if (!RequestSyntax.isToken(method)) {
            return Outcome.malformed("invalid :method");
        }
        if (authority != null && !RequestSyntax.validValue(authority)) {
            return Outcome.malformed("invalid :authority");
        }
        HttpHeaders headers = REQUEST_HEADERS.newHeaders();
        StringBuilder cookies = null;
        for (Map.Entry<CharSequence, CharSequence> header : fields) {
            CharSequence name = header.getKey();
            if (name.length() > 0 && name.charAt(0) == ':') {
                continue;
            }
            if (checkNames && !lowerCaseToken(name)) {
                return Outcome.malformed("invalid field name");
            }
            CharSequence value = header.getValue();
            AsciiString lower = AsciiString.of(name).toLowerCase();
            if (CONNECTION_SPECIFIC.contains(lower) || (lower.equals(TE) && !AsciiString.contentEqualsIgnoreCase(
                    value, "trailers"))) {
                return Outcome.malformed("connection-specific header " + name);
            }
            if (!RequestSyntax.validValue(value)) {
                return Outcome.malformed("invalid value of " + name);
            }
            if (lower.equals(HOST) && authority != null && !AsciiString.contentEqualsIgnoreCase(value, authority)) {
                // RFC 9113 §8.3.1: a Host naming another entity than :authority makes the request malformed;
                // a route table would otherwise read one and the node the other
                return Outcome.refused(HttpResponseStatus.BAD_REQUEST, "host differs from :authority");
            }
            if (lower.equals(COOKIE)) {
                cookies = cookies == null ? new StringBuilder(value) : cookies.append("; ").append(value);
            } else if (!(lower.equals(HOST) && authority != null)) {
                headers.add(lower, value);
            }
        }
        if (cookies != null) {
            headers.set(HttpHeaderNames.COOKIE, cookies.toString()); // RFC 9113 §8.2.3: one field for HTTP/1.1
        }
        if (authority != null) {
            headers.set(HttpHeaderNames.HOST, authority); // RFC 9113 §8.3.1: :authority wins over Host
        } else if (!headers.contains(HttpHeaderNames.HOST)) {
            return Outcome.refused(HttpResponseStatus.BAD_REQUEST, "no :authority or host");
        }
        long bodyLength;
        long declaredLength = -1;
        if (endStream) {
            bodyLength = 0;
            headers.remove(HttpHeaderNames.CONTENT_LENGTH);
        } else {
            String length = headers.get(HttpHeaderNames.CONTENT_LENGTH);
            if (headers.getAll(HttpHeaderNames.CONTENT_LENGTH).size() > 1) {
                return Outcome.malformed("more than one content-length");
            }
            if (length != null) {
                declaredLength = RequestSyntax.parseLength(length);
                if (declaredLength < 0) {
                    return Outcome.malformed("invalid content-length");
                }
                bodyLength = declaredLength;
            } else {
                bodyLength = ProxiedRequest.CHUNKED;
            }
        }
        return new Outcome(ProxiedRequest.of(HttpMethod.valueOf(method.toString()), path.toString(), headers,
                bodyLength), declaredLength, null, null);
    }

    /**
     * Copies request trailers into {@code last} (only when the body goes on chunked, {@code declaredLength} -1: with
     * a content-length none can follow); returns the problem, or null when they are fine.
     */
    public static String trailers(Iterable<Map.Entry<CharSequence, CharSequence>> fields, long declaredLength,
            boolean checkNames, LastHttpContent last) {
        if (declaredLength >= 0) {
            return null;
        }
        for (Map.Entry<CharSequence, CharSequence> header : fields) {
            CharSequence name = header.getKey();
            if (name.length() > 0 && name.charAt(0) == ':' || !RequestSyntax.validValue(header.getValue())
                    || checkNames && !lowerCaseToken(name)) {
                return "invalid trailer " + name;
            }
            last.trailingHeaders().add(name, header.getValue());
        }
        return null;
    }

    /** Whether the body bytes seen so far agree with {@code content-length} ({@code declared} -1: none). */
    public static boolean lengthAgrees(long declared, long received, boolean ended) {
        return declared < 0 || (received <= declared && (!ended || received == declared));
    }

    /** Whether {@code name} is a token with no upper-case letter (RFC 9114 §4.2, RFC 9113 §8.2.1). */
    static boolean lowerCaseToken(CharSequence name) {
        if (!RequestSyntax.isToken(name)) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                return false;
            }
        }
        return true;
    }
}
