package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cookie-based session affinity: finds the node a request is pinned to and names the cookie that pins
 * a new session.
 *
 * <p>A request is pinned by the route in its {@code JSESSIONID} (cookie, or {@code ;jsessionid=} in the
 * path): Tomcat appends {@code .jvmRoute}, Liberty/WebSphere appends {@code :cloneId} (more than one
 * after a fail-over; the first known one wins). Otherwise by the dispatcher's own cookie, whose value
 * is the node's route, or its name when it has none. Immutable, shared by every event loop.
 */
final class SessionAffinity {

    private static final String JSESSIONID = "JSESSIONID";
    private static final String PATH_PARAMETER = ";jsessionid=";

    private final Map<String, NodeState> byRoute = new HashMap<>();
    private final Map<String, NodeState> byCookie = new HashMap<>();
    private final String cookieName;
    private final String[] setCookieByNode;

    SessionAffinity(VirtualCluster cluster) {
        this.cookieName = cluster.config().affinityCookieOrDefault();
        List<NodeState> nodes = cluster.nodes();
        this.setCookieByNode = new String[nodes.size()];
        for (NodeState node : nodes) {
            if (node.route() != null) {
                byRoute.put(node.route(), node);
            }
            String value = node.route() != null ? node.route() : node.name();
            byCookie.put(value, node);
            setCookieByNode[node.index()] = cookieName + "=" + value + "; Path=/; HttpOnly";
        }
    }

    /** The {@code Set-Cookie} value that pins later requests to {@code node}. */
    String setCookieFor(NodeState node) {
        return setCookieByNode[node.index()];
    }

    /**
     * Whether the response starts a session whose {@code JSESSIONID} already names {@code node}'s
     * route: then the application pins its session itself and the dispatcher's cookie is not added.
     */
    boolean setsOwnRoute(HttpHeaders responseHeaders, NodeState node) {
        if (node.route() == null) {
            return false;
        }
        for (String cookie : responseHeaders.getAll(HttpHeaderNames.SET_COOKIE)) {
            int eq = cookie.indexOf('=');
            if (eq == JSESSIONID.length() && cookie.regionMatches(true, 0, JSESSIONID, 0, eq)) {
                int end = cookie.indexOf(';', eq);
                String sessionId = cookie.substring(eq + 1, end < 0 ? cookie.length() : end).trim();
                if (byRouteIn(sessionId) == node) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@link #pinnedIndex}: the request carries no affinity. */
    static final int NONE = -1;
    /** {@link #pinnedIndex}: the request carries an affinity naming no node of this cluster. */
    static final int UNKNOWN = -2;

    /** Index of the node this request is pinned to (usable or not), {@link #NONE} or {@link #UNKNOWN}. */
    int pinnedIndex(HttpRequest request) {
        String sessionId = null;
        String own = null;
        String cookies = request.headers().get(HttpHeaderNames.COOKIE);
        if (cookies != null) {
            int start = 0;
            int length = cookies.length();
            while (start < length) {
                int end = cookies.indexOf(';', start);
                if (end < 0) {
                    end = length;
                }
                int eq = cookies.indexOf('=', start);
                if (eq > 0 && eq < end) {
                    int nameStart = skipSpaces(cookies, start, eq);
                    if (cookies.regionMatches(nameStart, JSESSIONID, 0, JSESSIONID.length())
                            && eq - nameStart == JSESSIONID.length()) {
                        sessionId = cookies.substring(eq + 1, end).trim();
                    } else if (eq - nameStart == cookieName.length()
                            && cookies.regionMatches(nameStart, cookieName, 0, cookieName.length())) {
                        own = cookies.substring(eq + 1, end).trim();
                    }
                }
                start = end + 1;
            }
        }
        if (sessionId == null) {
            sessionId = fromPath(request.uri());
        }
        if (sessionId != null) {
            NodeState node = byRouteIn(sessionId);
            if (node != null) {
                return node.index();
            }
        }
        if (own != null) {
            NodeState node = byCookie.get(own);
            return node != null ? node.index() : UNKNOWN;
        }
        return sessionId != null && (sessionId.indexOf('.') > 0 || sessionId.indexOf(':') > 0) ? UNKNOWN : NONE;
    }

    private NodeState byRouteIn(String sessionId) {
        int dot = sessionId.lastIndexOf('.');
        if (dot >= 0) {
            NodeState node = byRoute.get(sessionId.substring(dot + 1));
            if (node != null) {
                return node;
            }
        }
        int colon = sessionId.indexOf(':');
        while (colon >= 0) {
            int next = sessionId.indexOf(':', colon + 1);
            String cloneId = sessionId.substring(colon + 1, next < 0 ? sessionId.length() : next);
            NodeState node = byRoute.get(cloneId);
            if (node != null) {
                return node;
            }
            colon = next;
        }
        return null;
    }

    private static String fromPath(String uri) {
        int at = uri.indexOf(PATH_PARAMETER);
        if (at < 0) {
            return null;
        }
        int start = at + PATH_PARAMETER.length();
        int end = start;
        while (end < uri.length() && uri.charAt(end) != '?' && uri.charAt(end) != '#' && uri.charAt(end) != ';') {
            end++;
        }
        return uri.substring(start, end);
    }

    private static int skipSpaces(String s, int from, int limit) {
        while (from < limit && s.charAt(from) == ' ') {
            from++;
        }
        return from;
    }
}
