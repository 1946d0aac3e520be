package io.loadwise.dispatcher.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.RouteConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RouteTableTest {

    /** The example table, plus a few routes for the edge cases below. */
    static final String ROUTES = """
        [
          { "name": "canary-api", "match": { "host": "shop.example", "pathPrefix": "/api", "methods": ["GET","POST"],
                       "headers": { "x-canary": "1" } }, "cluster": "shop-canary" },
          { "name": "admin", "match": { "host": "shop.example", "pathPrefix": "/admin" }, "respond": { "status": 403 } },
          { "name": "wild", "match": { "host": "*.example.com", "pathPrefix": "/" },
            "split": [ { "cluster": "shop", "weight": 95 }, { "cluster": "shop-canary", "weight": 5 } ] },
          { "name": "old", "match": { "pathPrefix": "/old" }, "redirect": { "status": 301, "scheme": "https", "path": "/new" } },
          { "name": "healthz", "match": { "path": "/healthz" }, "respond": { "status": 200, "body": "ok\\n" } },
          { "name": "reports", "match": { "pathRegex": "/reports/[0-9]+\\\\.pdf" }, "cluster": "reports" },
          { "name": "beta", "match": { "query": { "beta": "1" } }, "cluster": "beta" },
          { "name": "debug", "match": { "headers": { "x-debug": { "present": true } } }, "cluster": "debug" },
          { "name": "shop", "match": { "host": "shop.example" }, "cluster": "shop" }
        ]""";

    static RouteTable table() throws Exception {
        String json = "{\"listeners\":[{\"name\":\"edge\",\"listen\":\"127.0.0.1:0\",\"routes\":" + ROUTES + "}]}";
        List<RouteConfig> routes = ConfigLoader.parse(json).listenersOrEmpty().get(0).routes();
        return RouteTable.compile("edge", routes);
    }

    static String route(RouteTable table, String method, String host, String target, Map<String, String> headers) {
        int q = target.indexOf('?');
        String path = RequestPath.matchForm(q < 0 ? target : target.substring(0, q));
        Route r = table.match(new TestRequest(method, host, path, q < 0 ? null : target.substring(q + 1), headers));
        return r == null ? null : r.name();
    }

    @ParameterizedTest(name = "{0} {1}{2} -> {3}")
    @CsvSource(delimiter = '|', nullValues = "none", value = {
        "GET    | shop.example         | /api/x          | shop",
        "GET    | SHOP.EXAMPLE.:8080   | /admin          | admin",
        "GET    | shop.example         | /admin/users    | admin",
        "GET    | shop.example         | /api/../admin   | admin",
        "GET    | shop.example         | /API/../ADMIN   | admin",
        "GET    | shop.example         | //admin         | admin",
        "GET    | shop.example         | /admin;x        | admin",
        "GET    | shop.example         | /%61dmin        | admin",
        "GET    | shop.example         | /%2e%2e/admin   | admin",
        "GET    | shop.example         | /adminx         | shop",
        "GET    | shop.example         | /a%2Fadmin      | shop",
        "GET    | a.example.com        | /anything       | wild",
        "GET    | a.b.example.com      | /               | wild",
        "GET    | example.com          | /               | none",
        "GET    | xexample.com         | /               | none",
        "GET    | other                | /old/page       | old",
        "GET    | other                | /olden          | none",
        "GET    | other                | /healthz        | healthz",
        "GET    | other                | /healthz/       | none",
        "GET    | other                | /HEALTHZ        | healthz",
        "GET    | other                | /reports/12.pdf | reports",
        "GET    | other                | /reports/1x.pdf | none",
        "GET    | other                | /x?beta=1       | beta",
        "GET    | other                | /x?a=2&beta=1   | beta",
        "GET    | other                | /x?beta=10      | none",
        "GET    | [::1]:8080           | /healthz        | healthz",
    })
    void firstMatchWins(String method, String host, String target, String expected) throws Exception {
        assertEquals(expected, route(table(), method, host, target, Map.of()));
    }

    @Test
    void headersAndMethodsNarrowARoute() throws Exception {
        RouteTable t = table();
        assertEquals("canary-api", route(t, "GET", "shop.example", "/api/v2", Map.of("x-canary", "1")));
        assertEquals("shop", route(t, "DELETE", "shop.example", "/api/v2", Map.of("x-canary", "1")));
        assertEquals("shop", route(t, "GET", "shop.example", "/api/v2", Map.of("x-canary", "2")));
        assertEquals("debug", route(t, "GET", "other", "/x", Map.of("x-debug", "")));
        assertNull(route(t, "GET", "other", "/x", Map.of()));
    }

    @Test
    void actionsCarryTheirParts() throws Exception {
        List<Route> routes = table().routes();
        RouteAction.Split split = assertInstanceOf(RouteAction.Split.class, routes.get(2).action());
        assertEquals(100, split.totalWeight());
        assertEquals("shop", split.pick(94));
        assertEquals("shop-canary", split.pick(95));
        RouteAction.Respond ok = assertInstanceOf(RouteAction.Respond.class, routes.get(4).action());
        assertEquals("ok\n", new String(ok.body()));
        assertEquals(1, routes.get(3).prefixSegments());
    }

    @Test
    void anEmptyMatchCatchesEverything() throws Exception {
        String json = "{\"listeners\":[{\"name\":\"e\",\"listen\":\"127.0.0.1:0\",\"routes\":["
                + "{\"match\":{\"path\":\"/a\"},\"cluster\":\"a\"},{\"cluster\":\"rest\"}]}]}";
        RouteTable t = RouteTable.compile("e", ConfigLoader.parse(json).listenersOrEmpty().get(0).routes());
        assertEquals("e/0", route(t, "GET", "h", "/a", Map.of()));
        assertEquals("e/1", route(t, "GET", "h", "/b", Map.of()));
    }

    @Test
    void aThousandRoutesStillFindTheFirstMatch() {
        List<RouteConfig> configs = RouteTableBench.routes(1_000);
        RouteTable t = RouteTable.compile("bench", configs);
        for (int i = 0; i < 1_000; i += 37) {
            String host = "app" + (i / 10) + ".example";
            String path = "/p" + (i % 10) + "/item";
            assertEquals("bench/" + i, route(t, "GET", host, path, Map.of()));
        }
        assertNull(route(t, "GET", "nobody.example", "/p1/item", Map.of()));
    }

    record TestRequest(String method, CharSequence authority, String path, String query, Map<String, String> headers)
            implements RouteRequest {

        @Override
        public CharSequence header(CharSequence name) {
            for (Map.Entry<String, String> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name.toString())) {
                    return e.getValue();
                }
            }
            return null;
        }
    }
}
