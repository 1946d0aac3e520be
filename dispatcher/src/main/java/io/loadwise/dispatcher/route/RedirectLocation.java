package io.loadwise.dispatcher.route;

import io.loadwise.dispatcher.config.RouteConfig.RedirectConfig;

/**
 * Builds a redirect's {@code Location} from validated parts only: the configured ones (checked by the
 * validator) and the request's host and path, which the decoder has checked and which are checked again here.
 * The result is always absolute ({@code scheme://host[:port]/path[?query]}), so no request can turn it into a
 * protocol-relative or header-splitting value.
 */
public final class RedirectLocation {

    private final RedirectConfig config;

    RedirectLocation(RedirectConfig config) {
        this.config = config;
    }

    /**
     * The Location for a request, or null when the request's own parts cannot be used safely (the caller then
     * answers 400).
     *
     * @param requestScheme {@code http} or {@code https}, as the client connected
     * @param authority the request's authority (Host), with port
     * @param forwardPath the normalised path to keep, with parameters ({@link RequestPath#forward})
     * @param matchedSegments how many leading segments of the path the route's prefix matched
     * @param query the raw query, or null
     */
    public String build(String requestScheme, CharSequence authority, String forwardPath, int matchedSegments,
            String query) {
        String scheme = config.scheme() != null ? config.scheme() : requestScheme;
        String host;
        if (config.host() != null) {
            host = config.host();
        } else {
            int end = HostName.end(authority);
            host = authority.subSequence(0, end).toString();
            if (!isHost(host)) {
                return null;
            }
        }
        String path;
        if (config.path() != null) {
            path = config.path();
        } else if (config.pathPrefix() != null) {
            path = PathRewrite.replacePrefix(forwardPath, matchedSegments, config.pathPrefix());
        } else {
            path = forwardPath;
        }
        if (!isPath(path)) {
            return null;
        }
        StringBuilder location = new StringBuilder(scheme.length() + host.length() + path.length() + 16);
        location.append(scheme).append("://").append(host);
        Integer port = config.port() != null ? config.port() : portOf(authority, config.scheme() == null);
        if (port != null && !isDefaultPort(scheme, port)) {
            location.append(':').append(port);
        }
        location.append(path);
        boolean keepQuery = query != null && !Boolean.TRUE.equals(config.stripQuery());
        if (keepQuery && isQuery(query)) {
            location.append('?').append(query);
        }
        return location.toString();
    }

    /** The request's explicit port, kept only when the scheme is kept too (http:8080 → https drops it). */
    private static Integer portOf(CharSequence authority, boolean sameScheme) {
        if (!sameScheme) {
            return null;
        }
        int end = HostName.end(authority);
        while (end < authority.length() && authority.charAt(end) == '.') {
            end++;
        }
        if (end >= authority.length() || authority.charAt(end) != ':') {
            return null;
        }
        try {
            int port = Integer.parseInt(authority.subSequence(end + 1, authority.length()).toString());
            return port >= 1 && port <= 65_535 ? port : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static boolean isDefaultPort(String scheme, int port) {
        return ("http".equals(scheme) && port == 80) || ("https".equals(scheme) && port == 443);
    }

    /** A reg-name, IPv4 or bracketed IPv6 literal: letters, digits, {@code - .} and, in brackets, {@code :}. */
    static boolean isHost(String host) {
        if (host.isEmpty() || host.length() > 255) {
            return false;
        }
        boolean literal = host.charAt(0) == '[';
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
                    || c == '.' || (literal && (c == ':' || c == '[' || c == ']'));
            if (!ok) {
                return false;
            }
        }
        return !literal || host.endsWith("]");
    }

    /** An absolute path of visible ASCII that cannot be read as {@code //authority}. */
    static boolean isPath(String path) {
        if (path.isEmpty() || path.charAt(0) != '/' || path.startsWith("//")) {
            return false;
        }
        return isVisible(path) && path.indexOf('\\') < 0;
    }

    private static boolean isQuery(String query) {
        return isVisible(query);
    }

    private static boolean isVisible(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }
}
