package io.loadwise.dispatcher.route;

import io.loadwise.dispatcher.config.RouteConfig;

/**
 * One compiled route: where it sits in its table, what it matches, what it does and the filters a forwarded
 * request passes. Immutable.
 */
public final class Route {

    private final int index;
    private final String name;
    private final RouteConfig config;
    private final RouteCondition condition;
    private final RouteAction action;
    private final int prefixSegments;

    Route(int index, String name, RouteConfig config) {
        this.index = index;
        this.name = name;
        this.config = config;
        this.condition = new RouteCondition(config.match());
        this.action = RouteAction.of(config);
        String prefix = config.match() == null ? null
                : config.match().pathPrefix() != null ? config.match().pathPrefix() : config.match().path();
        this.prefixSegments = prefix == null ? 0 : PathRewrite.segments(RequestPath.matchForm(prefix));
    }

    public int index() {
        return index;
    }

    /** The configured name, else {@code listener/index}. */
    public String name() {
        return name;
    }

    public RouteAction action() {
        return action;
    }

    /** The route as configured: its filters ({@code rewrite}, header edits, {@code rateLimit}) are read here. */
    public RouteConfig config() {
        return config;
    }

    /** How many leading path segments the route's {@code pathPrefix} or {@code path} covers. */
    public int prefixSegments() {
        return prefixSegments;
    }

    RouteCondition condition() {
        return condition;
    }

    @Override
    public String toString() {
        return name;
    }
}
