package io.loadwise.dispatcher.route;

import com.google.re2j.Pattern;
import io.loadwise.dispatcher.config.RouteMatch;
import io.loadwise.dispatcher.config.ValueMatch;
import java.util.Locale;
import java.util.Map;

/**
 * One route's {@link RouteMatch}, compiled: every condition must hold. Host and path compare ignoring ASCII
 * case; a prefix matches whole segments only. Immutable and allocation-free unless the route tests a regex or
 * the query.
 */
final class RouteCondition {

    enum HostKind { ANY, EXACT, WILDCARD }

    enum PathKind { ANY, EXACT, PREFIX, REGEX }

    final HostKind hostKind;
    /** Lower case; for a wildcard the suffix after {@code *.}. */
    final String host;
    final PathKind pathKind;
    /** Lower case, normalised; a prefix without its trailing slash unless it is {@code /}. */
    final String path;
    private final Pattern regex;
    private final String[] methods;
    private final String[] headerNames;
    private final ValueMatch[] headerValues;
    private final String[] queryNames;
    private final ValueMatch[] queryValues;

    RouteCondition(RouteMatch match) {
        RouteMatch m = match == null ? new RouteMatch(null, null, null, null, null, null, null) : match;
        if (m.host() == null) {
            hostKind = HostKind.ANY;
            host = null;
        } else if (m.host().startsWith("*.")) {
            hostKind = HostKind.WILDCARD;
            host = HostName.canonical(m.host().substring(2));
        } else {
            hostKind = HostKind.EXACT;
            host = HostName.canonical(m.host());
        }
        if (m.path() != null) {
            pathKind = PathKind.EXACT;
            path = RequestPath.matchForm(m.path()).toLowerCase(Locale.ROOT);
            regex = null;
        } else if (m.pathPrefix() != null) {
            pathKind = PathKind.PREFIX;
            String prefix = RequestPath.matchForm(m.pathPrefix()).toLowerCase(Locale.ROOT);
            path = prefix.length() > 1 && prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
            regex = null;
        } else if (m.pathRegex() != null) {
            pathKind = PathKind.REGEX;
            path = null;
            regex = Pattern.compile(m.pathRegex(), Pattern.CASE_INSENSITIVE);
        } else {
            pathKind = PathKind.ANY;
            path = null;
            regex = null;
        }
        methods = m.methodsOrEmpty().toArray(new String[0]);
        Map<String, ValueMatch> headers = m.headersOrEmpty();
        headerNames = headers.keySet().stream().map(h -> h.toLowerCase(Locale.ROOT)).toArray(String[]::new);
        headerValues = headers.values().toArray(new ValueMatch[0]);
        queryNames = m.queryOrEmpty().keySet().toArray(new String[0]);
        queryValues = m.queryOrEmpty().values().toArray(new ValueMatch[0]);
    }

    /** The first path segment every matching path starts with (lower case), or null when any will do. */
    String firstSegment() {
        if (pathKind == PathKind.EXACT || (pathKind == PathKind.PREFIX && path.length() > 1)) {
            int slash = path.indexOf('/', 1);
            return slash < 0 ? path.substring(1) : path.substring(1, slash);
        }
        return null;
    }

    boolean matches(RouteRequest request, CharSequence authority, int hostEnd) {
        return hostMatches(authority, hostEnd) && pathMatches(request.path()) && methodMatches(request.method())
                && headersMatch(request) && queryMatches(request.query());
    }

    private boolean hostMatches(CharSequence authority, int hostEnd) {
        switch (hostKind) {
            case EXACT:
                return HostName.equalsIgnoreCase(host, authority, 0, hostEnd);
            case WILDCARD:
                int from = hostEnd - host.length();
                return from > 1 && authority.charAt(from - 1) == '.'
                        && HostName.equalsIgnoreCase(host, authority, from, hostEnd);
            default:
                return true;
        }
    }

    boolean pathMatches(String p) {
        switch (pathKind) {
            case EXACT:
                return p.length() == path.length() && p.regionMatches(true, 0, path, 0, path.length());
            case PREFIX:
                if (path.length() == 1) {
                    return true;
                }
                return p.regionMatches(true, 0, path, 0, path.length())
                        && (p.length() == path.length() || p.charAt(path.length()) == '/');
            case REGEX:
                return regex.matches(p);
            default:
                return true;
        }
    }

    private boolean methodMatches(String method) {
        if (methods.length == 0) {
            return true;
        }
        for (String m : methods) {
            if (m.equals(method)) {
                return true;
            }
        }
        return false;
    }

    private boolean headersMatch(RouteRequest request) {
        for (int i = 0; i < headerNames.length; i++) {
            CharSequence value = request.header(headerNames[i]);
            if (!valueMatches(headerValues[i], value)) {
                return false;
            }
        }
        return true;
    }

    private boolean queryMatches(String query) {
        for (int i = 0; i < queryNames.length; i++) {
            if (!valueMatches(queryValues[i], QueryParameters.first(query, queryNames[i]))) {
                return false;
            }
        }
        return true;
    }

    private static boolean valueMatches(ValueMatch want, CharSequence value) {
        if (value == null) {
            return false;
        }
        return want.exact() == null || want.exact().contentEquals(value);
    }
}
