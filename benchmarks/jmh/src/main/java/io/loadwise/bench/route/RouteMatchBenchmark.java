package io.loadwise.bench.route;

import io.loadwise.dispatcher.config.RouteConfig;
import io.loadwise.dispatcher.config.RouteMatch;
import io.loadwise.dispatcher.route.Route;
import io.loadwise.dispatcher.route.RouteRequest;
import io.loadwise.dispatcher.route.RouteTable;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Cost of one {@link RouteTable#match} at 10, 100 and 1,000 routes: a host and prefix mix (one host in ten
 * routes, ten path prefixes per host, a tenth of the hosts as {@code *.} wildcards) and a catch-all last,
 * queried with 1,024 pre-built requests over every host, some matching no host route. Run with
 * {@code -prof gc}: the aim is 0 B/op and at most 100 ns at 1,000 routes (issue 30).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RouteMatchBenchmark {

    @Param({"10", "100", "1000"})
    public int routes;

    private RouteTable table;
    private Request[] requests;
    private int next;

    @Setup
    public void build() {
        List<RouteConfig> configs = new ArrayList<>();
        int hosts = Math.max(1, routes / 10);
        for (int i = 0; i < routes - 1; i++) {
            int host = i / 10;
            String name = host % 10 == 9 ? "*.app" + host + ".example" : "app" + host + ".example";
            RouteMatch match = new RouteMatch(name, null, "/p" + (i % 10), null, null, null, null);
            configs.add(new RouteConfig(null, match, "c" + (i % 4), null, null, null, null, null, null, null));
        }
        configs.add(new RouteConfig("fallback", null, "c0", null, null, null, null, null, null, null));
        table = RouteTable.compile("bench", configs);
        SplittableRandom random = new SplittableRandom(2026);
        requests = new Request[1024];
        for (int i = 0; i < requests.length; i++) {
            int host = random.nextInt(hosts + 1);
            String authority = host % 10 == 9 ? "www.app" + host + ".example:8443" : "app" + host + ".example";
            requests[i] = new Request(authority, "/p" + random.nextInt(12) + "/orders/" + random.nextInt(1000));
        }
    }

    @Benchmark
    public Route match() {
        Request request = requests[next++ & (requests.length - 1)];
        return table.match(request);
    }

    /** A decoded request as the route stage sees it. */
    record Request(CharSequence authority, String path) implements RouteRequest {

        @Override
        public String method() {
            return "GET";
        }

        @Override
        public CharSequence header(CharSequence name) {
            return null;
        }

        @Override
        public String query() {
            return null;
        }
    }
}
