package io.loadwise.dispatcher.route;

import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.RouteConfig;
import io.loadwise.dispatcher.config.RouteMatch;
import io.loadwise.dispatcher.config.ValueMatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code validate} warns of in a valid route table: a route that an earlier one shadows (it can never
 * match), and a redirect whose Location the same route would match again (a loop). Decided from the
 * conditions alone, conservatively: a regex shadows only the same regex, so every warning is a real one.
 */
public final class RouteWarnings {

    private RouteWarnings() {
    }

    public static List<String> of(LoadwiseConfig config) {
        List<String> warnings = new ArrayList<>();
        List<ListenerConfig> listeners = config.listenersOrEmpty();
        for (int i = 0; i < listeners.size(); i++) {
            ListenerConfig listener = listeners.get(i);
            List<RouteConfig> routes = listener.routesOrEmpty();
            String at = "listeners[" + i + "]";
            for (int later = 0; later < routes.size(); later++) {
                for (int earlier = 0; earlier < later; earlier++) {
                    if (covers(routes.get(earlier).match(), routes.get(later).match())) {
                        warnings.add(at + ".routes[" + later + "] (" + name(listener, routes, later)
                                + ") is shadowed by " + at + ".routes[" + earlier + "] (" + name(listener, routes, earlier)
                                + "): every request it matches, the earlier one takes");
                        break;
                    }
                }
                if (redirectsToItself(listener, routes.get(later))) {
                    warnings.add(at + ".routes[" + later + "] (" + name(listener, routes, later)
                            + ") redirects to a location it matches itself: a redirect loop");
                }
            }
        }
        return warnings;
    }

    private static String name(ListenerConfig listener, List<RouteConfig> routes, int index) {
        String name = routes.get(index).name();
        return name != null ? name : listener.name() + "/" + index;
    }

    /** Whether every request {@code b} matches is matched by {@code a} too. */
    static boolean covers(RouteMatch a, RouteMatch b) {
        if (a == null || a.isEmpty()) {
            return true;
        }
        if (b == null) {
            return false;
        }
        return hostCovers(a.host(), b.host()) && pathCovers(a, b) && methodsCover(a.methodsOrEmpty(), b.methodsOrEmpty())
                && valuesCover(a.headersOrEmpty(), b.headersOrEmpty(), true)
                && valuesCover(a.queryOrEmpty(), b.queryOrEmpty(), false);
    }

    private static boolean hostCovers(String a, String b) {
        if (a == null) {
            return true;
        }
        if (b == null) {
            return false;
        }
        String ca = a.startsWith("*.") ? "*." + HostName.canonical(a.substring(2)) : HostName.canonical(a);
        String cb = b.startsWith("*.") ? "*." + HostName.canonical(b.substring(2)) : HostName.canonical(b);
        if (ca.equals(cb)) {
            return true;
        }
        // *.example.com covers shop.example.com and *.eu.example.com
        return ca.startsWith("*.") && cb.endsWith(ca.substring(1));
    }

    private static boolean pathCovers(RouteMatch a, RouteMatch b) {
        if (a.path() == null && a.pathPrefix() == null && a.pathRegex() == null) {
            return true;
        }
        if (a.pathRegex() != null) {
            return a.pathRegex().equals(b.pathRegex());
        }
        String bPath = b.path() != null ? b.path() : b.pathPrefix();
        if (bPath == null) {
            return false;
        }
        String normalB = RequestPath.matchForm(bPath);
        if (normalB == null) {
            return false;
        }
        if (a.path() != null) {
            String normalA = RequestPath.matchForm(a.path());
            return b.path() != null && normalA != null && normalA.equalsIgnoreCase(normalB);
        }
        RouteCondition prefix = new RouteCondition(new RouteMatch(null, null, a.pathPrefix(), null, null, null, null));
        return prefix.pathMatches(normalB.length() > 1 && normalB.endsWith("/")
                ? normalB.substring(0, normalB.length() - 1) : normalB);
    }

    private static boolean methodsCover(List<String> a, List<String> b) {
        return a.isEmpty() || (!b.isEmpty() && a.containsAll(b));
    }

    private static boolean valuesCover(Map<String, ValueMatch> a, Map<String, ValueMatch> b, boolean ignoreCase) {
        for (Map.Entry<String, ValueMatch> want : a.entrySet()) {
            ValueMatch have = null;
            for (Map.Entry<String, ValueMatch> e : b.entrySet()) {
                if (ignoreCase ? e.getKey().equalsIgnoreCase(want.getKey()) : e.getKey().equals(want.getKey())) {
                    have = e.getValue();
                }
            }
            if (have == null) {
                return false;
            }
            boolean covered = want.getValue().exact() == null || want.getValue().exact().equals(have.exact());
            if (!covered) {
                return false;
            }
        }
        return true;
    }

    private static boolean redirectsToItself(ListenerConfig listener, RouteConfig route) {
        RouteConfig.RedirectConfig r = route.redirect();
        RouteMatch m = route.match();
        if (r == null || r.port() != null) {
            return false;
        }
        if (m != null && (!m.methodsOrEmpty().isEmpty() || !m.headersOrEmpty().isEmpty() || !m.queryOrEmpty().isEmpty())) {
            return false; // the followed request may not match again: no warning that could be wrong
        }
        String listenerScheme = listener.tls() != null ? "https" : "http";
        if (r.scheme() != null && !r.scheme().equals(listenerScheme)) {
            return false;
        }
        boolean sameHostMatches = r.host() == null || m == null || m.host() == null || hostCovers(m.host(), r.host());
        if (!sameHostMatches) {
            return false;
        }
        String target = r.path() != null ? r.path() : r.pathPrefix();
        if (target == null || m == null) {
            return true;
        }
        String normal = RequestPath.matchForm(target);
        if (normal == null) {
            return false;
        }
        RouteCondition pathOnly = new RouteCondition(new RouteMatch(null, m.path(), m.pathPrefix(), m.pathRegex(),
                null, null, null));
        // a pathPrefix redirect keeps the rest of the path: /old/x -> /new/x; the new prefix itself decides
        return pathOnly.pathMatches(normal.toLowerCase(Locale.ROOT));
    }
}
