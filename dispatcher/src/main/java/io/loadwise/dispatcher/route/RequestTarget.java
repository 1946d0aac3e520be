package io.loadwise.dispatcher.route;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import java.util.List;

/**
 * A request's target taken apart for routing: the authority (an absolute-form target's, else the Host
 * header's, RFC 9112 §3.2.2), the path and the query. {@link #problem} says why a request cannot be routed
 * at all (the caller answers 400): two Host headers, a Host that differs from the target's authority, or a path
 * that is no path.
 */
final class RequestTarget implements RouteRequest {

    private final HttpRequest request;
    private final String authority;
    private final String rawPath;
    private final String query;
    private final RequestPath path;
    private final String problem;

    private RequestTarget(HttpRequest request, String authority, String rawPath, String query, RequestPath path,
            String problem) {
        this.request = request;
        this.authority = authority;
        this.rawPath = rawPath;
        this.query = query;
        this.path = path;
        this.problem = problem;
    }

    static RequestTarget of(HttpRequest request) {
        String uri = request.uri();
        // The HTTP/1.1 decoder refuses a second Host and HTTP/2 keeps one, so the first is the only one; the
        // check stays for any other way a request is made (a listener's own tests, a future codec).
        String host = request.headers().get(HttpHeaderNames.HOST);
        if (host != null && request.headers().getAll(HttpHeaderNames.HOST).size() > 1) {
            return failed(request, "more than one Host header");
        }
        String authority = host;
        String rest = uri;
        int scheme = uri.indexOf("://");
        if (scheme > 0 && uri.charAt(0) != '/') {
            int start = scheme + 3;
            int end = start;
            while (end < uri.length() && uri.charAt(end) != '/' && uri.charAt(end) != '?') {
                end++;
            }
            authority = uri.substring(start, end);
            if (host != null && !sameAuthority(host, authority)) {
                return failed(request, "the Host header and the request target name different hosts");
            }
            rest = end == uri.length() ? "/" : uri.charAt(end) == '?' ? "/" + uri.substring(end) : uri.substring(end);
        }
        int q = rest.indexOf('?');
        String rawPath = q < 0 ? rest : rest.substring(0, q);
        String query = q < 0 ? null : rest.substring(q + 1);
        // OPTIONS * asks about the server, not a path: it routes as the root
        RequestPath path = rawPath.equals("*") ? RequestPath.of("/") : RequestPath.of(rawPath);
        if (path == null) {
            return failed(request, "the request path cannot be normalised");
        }
        return new RequestTarget(request, authority == null ? "" : authority, rawPath, query, path, null);
    }

    private static RequestTarget failed(HttpRequest request, String problem) {
        return new RequestTarget(request, "", "/", null, null, problem);
    }

    /** Equal ignoring ASCII case and a trailing dot of the host; the ports must be equal as written. */
    static boolean sameAuthority(String a, String b) {
        int ea = HostName.end(a);
        int eb = HostName.end(b);
        if (ea != eb || !a.regionMatches(true, 0, b, 0, ea)) {
            return false;
        }
        return portOf(a).equals(portOf(b));
    }

    private static String portOf(String authority) {
        int end = HostName.end(authority);
        while (end < authority.length() && authority.charAt(end) == '.') {
            end++;
        }
        return end < authority.length() && authority.charAt(end) == ':' ? authority.substring(end + 1) : "";
    }

    String problem() {
        return problem;
    }

    RequestPath normalised() {
        return path;
    }

    String rawPath() {
        return rawPath;
    }

    @Override
    public String method() {
        return request.method().name();
    }

    @Override
    public CharSequence authority() {
        return authority;
    }

    @Override
    public String path() {
        return path.match();
    }

    @Override
    public CharSequence header(CharSequence name) {
        return request.headers().get(name);
    }

    @Override
    public String query() {
        return query;
    }
}
