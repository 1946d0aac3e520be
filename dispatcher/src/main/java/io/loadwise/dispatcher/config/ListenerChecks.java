package io.loadwise.dispatcher.config;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks {@code listeners} and {@code rateLimits}: names, ports, each route's match, action and filters.
 * Every configured string that reaches a header or a Location is refused when it holds CR, LF, NUL or another
 * control character, so no configuration can split a response.
 */
final class ListenerChecks {

    static final Set<Integer> REDIRECT_STATUSES = Set.of(301, 302, 303, 307, 308);
    static final int MAX_RESPOND_BODY_BYTES = 64 * 1024;
    static final int MAX_SPLIT_WEIGHT = 10_000;
    static final double MAX_REQUESTS_PER_SECOND = 1_000_000;
    /** Framing and hop-by-hop headers: editing them would break the exchange; Host has {@code rewrite.host}. */
    static final Set<String> PROTECTED_HEADERS = Set.of("host", "content-length", "transfer-encoding",
            "connection", "upgrade", "te", "trailer", "keep-alive", "proxy-connection");
    private static final java.util.regex.Pattern HOST = java.util.regex.Pattern.compile(
            "(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,62})?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,62})?)*\\.?");
    private static final java.util.regex.Pattern AUTHORITY = java.util.regex.Pattern.compile(
            "[A-Za-z0-9]([A-Za-z0-9-]{0,62})?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,62})?)*(:[0-9]{1,5})?");

    private ListenerChecks() {
    }

    /**
     * @param clusters the mode of each cluster, by name
     * @param ports ports already taken, with who took them; the listeners' ports are added
     */
    static void check(LoadwiseConfig config, Map<String, Mode> clusters, Map<Integer, String> ports,
            List<String> errors) {
        Map<String, RateLimitConfig> limits = config.rateLimitsOrEmpty();
        limits.forEach((name, limit) -> checkRateLimit("rateLimits." + name, name, limit, errors));
        Map<String, Integer> names = new HashMap<>();
        List<ListenerConfig> listeners = config.listenersOrEmpty();
        for (int i = 0; i < listeners.size(); i++) {
            String at = "listeners[" + i + "]";
            ListenerConfig listener = listeners.get(i);
            if (listener == null) {
                errors.add(at + ": missing");
                continue;
            }
            if (FieldChecks.checkName(at + ".name", listener.name(), errors)) {
                Integer first = names.putIfAbsent(listener.name(), i);
                if (first != null) {
                    errors.add(at + ".name: duplicate listener name '" + listener.name() + "' (also listeners["
                            + first + "])");
                }
            }
            Integer port = FieldChecks.checkListen(at + ".listen", listener.listen(), errors);
            if (port != null && port != 0) {
                String owner = ports.putIfAbsent(port, at + ".listen");
                if (owner != null) {
                    errors.add(at + ".listen: port " + port + " already used by " + owner);
                }
            }
            FieldChecks.range(at + ".maxClientConnections", listener.maxClientConnections(), 1,
                    ConfigValidator.MAX_CLIENT_CONNECTIONS, errors);
            FieldChecks.range(at + ".maxConnectionsPerClient", listener.maxConnectionsPerClient(), 1,
                    ConfigValidator.MAX_CLIENT_CONNECTIONS, errors);
            FieldChecks.range(at + ".idleTimeoutMs", listener.idleTimeoutMs(), 1, Integer.MAX_VALUE, errors);
            FieldChecks.range(at + ".headerTimeoutMs", listener.headerTimeoutMs(), 1, Integer.MAX_VALUE, errors);
            FieldChecks.range(at + ".maxHeaderBytes", listener.maxHeaderBytes(), 1024, 1024 * 1024, errors);
            for (String proxy : listener.trustedProxiesOrEmpty()) {
                if (proxy == null || !proxy.matches("[0-9A-Fa-f.:]+(/[0-9]{1,3})?")) {
                    errors.add(at + ".trustedProxies: '" + printable(String.valueOf(proxy))
                            + "' is not an address or CIDR block");
                }
            }
            ProxyProtocolChecks.check(at + ".proxyProtocol", listener.proxyProtocol(), errors);
            Http3Config.check(at + ".http3", listener.http3(), listener.tls() != null, errors);
            for (ClusterCheck check : ClusterCheck.installed()) {
                check.checkListener(at, listener, errors);
            }
            List<RouteConfig> routes = listener.routesOrEmpty();
            if (routes.isEmpty()) {
                errors.add(at + ".routes: missing (a listener needs at least one route)");
            }
            for (int r = 0; r < routes.size(); r++) {
                checkRoute(at + ".routes[" + r + "]", routes.get(r), clusters, limits, errors);
            }
        }
    }

    static void checkRoute(String at, RouteConfig route, Map<String, Mode> clusters,
            Map<String, RateLimitConfig> limits, List<String> errors) {
        if (route == null) {
            errors.add(at + ": missing");
            return;
        }
        if (route.name() != null) {
            FieldChecks.checkName(at + ".name", route.name(), errors);
        }
        checkMatch(at + ".match", route.match(), errors);
        int actions = (route.cluster() != null ? 1 : 0) + (route.split() != null ? 1 : 0)
                + (route.redirect() != null ? 1 : 0) + (route.respond() != null ? 1 : 0);
        if (actions != 1) {
            errors.add(at + ": needs exactly one of cluster, split, redirect, respond (got " + actions + ")");
        }
        boolean forwards = route.cluster() != null || route.split() != null;
        if (route.cluster() != null) {
            target(at + ".cluster", route.cluster(), clusters, errors);
        }
        if (route.split() != null) {
            checkSplit(at + ".split", route.split(), clusters, errors);
        }
        if (route.redirect() != null) {
            checkRedirect(at + ".redirect", route.redirect(), errors);
        }
        if (route.respond() != null) {
            checkRespond(at + ".respond", route.respond(), errors);
        }
        if (route.rewrite() != null) {
            if (!forwards) {
                errors.add(at + ".rewrite: only for a route that forwards (cluster or split)");
            }
            checkPathValue(at + ".rewrite.pathPrefix", route.rewrite().pathPrefix(), errors);
            if (route.rewrite().host() != null && !AUTHORITY.matcher(route.rewrite().host()).matches()) {
                errors.add(at + ".rewrite.host: '" + printable(route.rewrite().host()) + "' is not a host[:port]");
            }
        }
        if (route.requestHeaders() != null && !forwards) {
            errors.add(at + ".requestHeaders: only for a route that forwards (cluster or split)");
        }
        checkEdits(at + ".requestHeaders", route.requestHeaders(), errors);
        checkEdits(at + ".responseHeaders", route.responseHeaders(), errors);
        if (route.rateLimit() != null && !limits.containsKey(route.rateLimit())) {
            errors.add(at + ".rateLimit: unknown rate limit '" + printable(route.rateLimit()) + "' (rateLimits has "
                    + limits.keySet().stream().sorted().toList() + ")");
        }
    }

    private static void checkMatch(String at, RouteMatch match, List<String> errors) {
        if (match == null) {
            return;
        }
        if (match.host() != null && !HOST.matcher(match.host()).matches()) {
            errors.add(at + ".host: '" + printable(match.host()) + "' is not a host name or *.domain");
        }
        int paths = (match.path() != null ? 1 : 0) + (match.pathPrefix() != null ? 1 : 0)
                + (match.pathRegex() != null ? 1 : 0);
        if (paths > 1) {
            errors.add(at + ": at most one of path, pathPrefix, pathRegex");
        }
        checkPathValue(at + ".path", match.path(), errors);
        checkPathValue(at + ".pathPrefix", match.pathPrefix(), errors);
        if (match.pathRegex() != null) {
            try {
                Pattern.compile(match.pathRegex());
            } catch (PatternSyntaxException e) {
                errors.add(at + ".pathRegex: not an RE2 expression: " + printable(e.getDescription()));
            }
        }
        List<String> methods = match.methodsOrEmpty();
        for (int i = 0; i < methods.size(); i++) {
            if (methods.get(i) == null || !methods.get(i).matches("[A-Z]{1,20}")) {
                errors.add(at + ".methods[" + i + "]: '" + printable(String.valueOf(methods.get(i)))
                        + "' is not a method (upper-case letters)");
            }
        }
        match.headersOrEmpty().forEach((name, value) -> {
            if (!isToken(name)) {
                errors.add(at + ".headers: '" + printable(name) + "' is not a header name");
            }
            checkValueMatch(at + ".headers." + printable(name), value, errors);
        });
        match.queryOrEmpty().forEach((name, value) -> {
            if (name.isEmpty() || hasControl(name)) {
                errors.add(at + ".query: '" + printable(name) + "' is not a parameter name");
            }
            checkValueMatch(at + ".query." + printable(name), value, errors);
        });
    }

    private static void checkValueMatch(String at, ValueMatch value, List<String> errors) {
        if (value == null || (value.exact() == null && !Boolean.TRUE.equals(value.present()))) {
            errors.add(at + ": a value, or {\"present\": true}");
        } else if (value.exact() != null && hasControl(value.exact())) {
            errors.add(at + ": holds CR, LF, NUL or another control character");
        }
    }

    private static void target(String at, String cluster, Map<String, Mode> clusters, List<String> errors) {
        Mode mode = clusters.get(cluster);
        if (mode == null) {
            errors.add(at + ": unknown cluster '" + printable(cluster) + "'");
        } else if (mode != Mode.HTTP) {
            errors.add(at + ": cluster '" + cluster + "' is mode " + mode.name().toLowerCase(java.util.Locale.ROOT)
                    + "; routes lead to http clusters");
        }
    }

    private static void checkSplit(String at, List<RouteConfig.SplitTarget> split, Map<String, Mode> clusters,
            List<String> errors) {
        if (split.isEmpty()) {
            errors.add(at + ": needs at least one cluster");
        }
        Set<String> seen = new HashSet<>();
        long total = 0;
        for (int i = 0; i < split.size(); i++) {
            RouteConfig.SplitTarget t = split.get(i);
            if (t == null) {
                errors.add(at + "[" + i + "]: missing");
                continue;
            }
            target(at + "[" + i + "].cluster", t.cluster(), clusters, errors);
            if (t.cluster() != null && !seen.add(t.cluster())) {
                errors.add(at + "[" + i + "].cluster: '" + t.cluster() + "' appears twice");
            }
            if (t.weight() == null) {
                errors.add(at + "[" + i + "].weight: missing");
            } else {
                FieldChecks.range(at + "[" + i + "].weight", t.weight(), 0, MAX_SPLIT_WEIGHT, errors);
                total += Math.max(0, t.weight());
            }
        }
        if (!split.isEmpty() && total == 0) {
            errors.add(at + ": the weights add up to 0");
        }
    }

    private static void checkRedirect(String at, RouteConfig.RedirectConfig r, List<String> errors) {
        if (r.status() != null && !REDIRECT_STATUSES.contains(r.status())) {
            errors.add(at + ".status: " + r.status() + " is not 301, 302, 303, 307 or 308");
        }
        if (r.scheme() != null && !r.scheme().equals("http") && !r.scheme().equals("https")) {
            errors.add(at + ".scheme: '" + printable(r.scheme()) + "' is not http or https");
        }
        if (r.host() != null && (r.host().startsWith("*") || !HOST.matcher(r.host()).matches())) {
            errors.add(at + ".host: '" + printable(r.host()) + "' is not a host name (give the port as port)");
        }
        FieldChecks.range(at + ".port", r.port(), 1, 65_535, errors);
        if (r.path() != null && r.pathPrefix() != null) {
            errors.add(at + ": at most one of path, pathPrefix");
        }
        checkPathValue(at + ".path", r.path(), errors);
        checkPathValue(at + ".pathPrefix", r.pathPrefix(), errors);
        if (r.scheme() == null && r.host() == null && r.port() == null && r.path() == null && r.pathPrefix() == null
                && !Boolean.TRUE.equals(r.stripQuery())) {
            errors.add(at + ": changes nothing (give scheme, host, port, path or pathPrefix)");
        }
    }

    private static void checkRespond(String at, RouteConfig.RespondConfig r, List<String> errors) {
        if (r.status() == null) {
            errors.add(at + ".status: missing");
        } else {
            FieldChecks.range(at + ".status", r.status(), 200, 599, errors);
        }
        if (r.body() != null && r.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_RESPOND_BODY_BYTES) {
            errors.add(at + ".body: over " + MAX_RESPOND_BODY_BYTES + " bytes");
        }
        if (r.contentType() != null && (r.contentType().isBlank() || hasControl(r.contentType()))) {
            errors.add(at + ".contentType: empty, or holds CR, LF, NUL or another control character");
        }
    }

    private static void checkEdits(String at, HeaderEditsConfig edits, List<String> errors) {
        if (edits == null) {
            return;
        }
        edits.setOrEmpty().forEach((name, value) -> checkEdit(at + ".set", name, value, errors));
        edits.addOrEmpty().forEach((name, value) -> checkEdit(at + ".add", name, value, errors));
        List<String> remove = edits.removeOrEmpty();
        for (int i = 0; i < remove.size(); i++) {
            checkEditName(at + ".remove[" + i + "]", remove.get(i), errors);
        }
    }

    private static void checkEdit(String at, String name, String value, List<String> errors) {
        checkEditName(at, name, errors);
        if (value == null) {
            errors.add(at + "." + printable(name) + ": missing value");
        } else if (hasControl(value)) {
            errors.add(at + "." + printable(name) + ": holds CR, LF, NUL or another control character");
        }
    }

    private static void checkEditName(String at, String name, List<String> errors) {
        if (name == null || !isToken(name)) {
            errors.add(at + ": '" + printable(String.valueOf(name)) + "' is not a header name");
        } else if (PROTECTED_HEADERS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
            errors.add(at + ": '" + name + "' cannot be edited (framing or hop-by-hop; Host is rewrite.host)");
        }
    }

    private static void checkPathValue(String at, String path, List<String> errors) {
        if (path == null) {
            return;
        }
        if (!path.startsWith("/") || path.startsWith("//")) {
            errors.add(at + ": '" + printable(path) + "' must start with a single '/'");
        } else if (hasControl(path) || path.indexOf(' ') >= 0 || path.indexOf('?') >= 0 || path.indexOf('#') >= 0
                || path.indexOf('\\') >= 0 || path.chars().anyMatch(c -> c >= 0x7f)) {
            errors.add(at + ": '" + printable(path) + "' holds a character a path cannot (space, ?, #, \\, control"
                    + " or non-ASCII; percent-encode it)");
        } else if (!wellEscaped(path)) {
            errors.add(at + ": '" + printable(path) + "' has a bad percent-escape");
        }
    }

    private static void checkRateLimit(String at, String name, RateLimitConfig limit, List<String> errors) {
        FieldChecks.checkName(at, name, errors);
        if (limit == null) {
            errors.add(at + ": missing");
            return;
        }
        String keyProblem = RateLimitKey.problem(limit.key());
        if (keyProblem != null) {
            errors.add(at + ".key: " + keyProblem);
        }
        Double rps = limit.requestsPerSecond();
        if (rps == null) {
            errors.add(at + ".requestsPerSecond: missing");
        } else if (!(rps > 0) || rps > MAX_REQUESTS_PER_SECOND) {
            errors.add(at + ".requestsPerSecond: " + rps + " out of range (0, " + (long) MAX_REQUESTS_PER_SECOND + "]");
        }
        FieldChecks.range(at + ".burst", limit.burst(), 1, 10_000_000, errors);
        FieldChecks.range(at + ".maxKeys", limit.maxKeys(), 16, RateLimitConfig.MAX_MAX_KEYS, errors);
    }

    private static boolean wellEscaped(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '%') {
                if (i + 2 >= s.length() || Character.digit(s.charAt(i + 1), 16) < 0
                        || Character.digit(s.charAt(i + 2), 16) < 0) {
                    return false;
                }
            }
        }
        return true;
    }

    static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** CR, LF, NUL, DEL or any control character other than HTAB. */
    static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                return true;
            }
        }
        return false;
    }

    /** A value fit for an error message: control characters shown as {@code \\xNN}, cut at 80 characters. */
    static String printable(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length() && out.length() < 80; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\x%02X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
