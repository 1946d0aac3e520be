package io.loadwise.dispatcher.route;

import io.loadwise.dispatcher.config.RouteConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A listener's routes, compiled once into an immutable index; the first route (in configuration order) whose
 * conditions all hold wins. Routes are filed by host (exact, wildcard suffix, any) and, within a host, by
 * first path segment, so a match looks at the few routes that could apply rather than all of them, and
 * allocates nothing unless a candidate tests a regex or the query. Built off the event loop; a reload swaps
 * the whole table, and requests in flight keep the one they matched with.
 */
public final class RouteTable {

    private static final int NONE = Integer.MAX_VALUE;

    private final Route[] routes;
    private final AsciiKeyTable<Bucket> exactHosts;
    private final AsciiKeyTable<Bucket> wildcardHosts;
    private final boolean hasWildcards;
    private final Bucket anyHost;

    private RouteTable(Route[] routes) {
        this.routes = routes;
        Map<String, BucketBuilder> exact = new LinkedHashMap<>();
        Map<String, BucketBuilder> wildcard = new LinkedHashMap<>();
        BucketBuilder any = new BucketBuilder();
        for (Route route : routes) {
            RouteCondition c = route.condition();
            BucketBuilder bucket = switch (c.hostKind) {
                case EXACT -> exact.computeIfAbsent(c.host, h -> new BucketBuilder());
                case WILDCARD -> wildcard.computeIfAbsent(c.host, h -> new BucketBuilder());
                default -> any;
            };
            bucket.add(route.index(), c.firstSegment());
        }
        exactHosts = new AsciiKeyTable<>(build(exact));
        wildcardHosts = new AsciiKeyTable<>(build(wildcard));
        hasWildcards = !wildcard.isEmpty();
        anyHost = any.build();
    }

    /** Compiles {@code configs} (already validated) for the listener {@code listener}. */
    public static RouteTable compile(String listener, List<RouteConfig> configs) {
        Route[] routes = new Route[configs.size()];
        for (int i = 0; i < routes.length; i++) {
            RouteConfig config = configs.get(i);
            String name = config.name() != null ? config.name() : listener + "/" + i;
            routes[i] = new Route(i, name, config);
        }
        return new RouteTable(routes);
    }

    public List<Route> routes() {
        return List.of(routes);
    }

    /** The first route that matches, or null (the caller answers 404). */
    public Route match(RouteRequest request) {
        CharSequence authority = request.authority();
        int hostEnd = HostName.end(authority);
        String path = request.path();
        int segmentEnd = path.indexOf('/', 1);
        if (segmentEnd < 0) {
            segmentEnd = path.length();
        }
        int best = NONE;
        Bucket exact = exactHosts.get(authority, 0, hostEnd);
        if (exact != null) {
            best = exact.first(routes, request, authority, hostEnd, path, segmentEnd, best);
        }
        if (hasWildcards) {
            for (int dot = 0; dot < hostEnd; dot++) {
                if (authority.charAt(dot) == '.' && dot > 0) {
                    Bucket suffix = wildcardHosts.get(authority, dot + 1, hostEnd);
                    if (suffix != null) {
                        best = suffix.first(routes, request, authority, hostEnd, path, segmentEnd, best);
                    }
                }
            }
        }
        best = anyHost.first(routes, request, authority, hostEnd, path, segmentEnd, best);
        return best == NONE ? null : routes[best];
    }

    private static Map<String, Bucket> build(Map<String, BucketBuilder> builders) {
        Map<String, Bucket> built = new HashMap<>();
        builders.forEach((host, b) -> built.put(host, b.build()));
        return built;
    }

    /** The routes of one host key: by first path segment, and those that take any path. */
    private static final class Bucket {

        private static final int[] EMPTY = new int[0];

        private final AsciiKeyTable<int[]> bySegment;
        private final int[] anySegment;

        Bucket(AsciiKeyTable<int[]> bySegment, int[] anySegment) {
            this.bySegment = bySegment;
            this.anySegment = anySegment;
        }

        int first(Route[] routes, RouteRequest request, CharSequence authority, int hostEnd, String path,
                int segmentEnd, int best) {
            int[] segment = bySegment.get(path, 1, segmentEnd);
            if (segment != null) {
                best = scan(segment, routes, request, authority, hostEnd, best);
            }
            return scan(anySegment, routes, request, authority, hostEnd, best);
        }

        private static int scan(int[] indices, Route[] routes, RouteRequest request, CharSequence authority,
                int hostEnd, int best) {
            for (int index : indices) {
                if (index >= best) {
                    return best;
                }
                if (routes[index].condition().matches(request, authority, hostEnd)) {
                    return index;
                }
            }
            return best;
        }
    }

    private static final class BucketBuilder {

        private final Map<String, List<Integer>> bySegment = new LinkedHashMap<>();
        private final List<Integer> anySegment = new ArrayList<>();

        void add(int index, String firstSegment) {
            if (firstSegment == null) {
                anySegment.add(index);
            } else {
                bySegment.computeIfAbsent(firstSegment, s -> new ArrayList<>()).add(index);
            }
        }

        Bucket build() {
            Map<String, int[]> segments = new HashMap<>();
            bySegment.forEach((s, list) -> segments.put(s, toArray(list)));
            return new Bucket(new AsciiKeyTable<>(segments), anySegment.isEmpty() ? Bucket.EMPTY : toArray(anySegment));
        }

        private static int[] toArray(List<Integer> list) {
            return list.stream().mapToInt(Integer::intValue).toArray();
        }
    }
}
