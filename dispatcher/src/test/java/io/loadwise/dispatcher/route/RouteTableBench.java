package io.loadwise.dispatcher.route;

import io.loadwise.dispatcher.config.RouteConfig;
import io.loadwise.dispatcher.config.RouteMatch;
import java.util.ArrayList;
import java.util.List;

/** The route tables the JMH benchmark measures: ten path prefixes per host. */
final class RouteTableBench {

    private RouteTableBench() {
    }

    static List<RouteConfig> routes(int count) {
        List<RouteConfig> routes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            RouteMatch match = new RouteMatch("app" + (i / 10) + ".example", null, "/p" + (i % 10), null, null, null,
                    null);
            routes.add(new RouteConfig(null, match, "c" + (i % 4), null, null, null, null, null, null, null));
        }
        return routes;
    }
}
