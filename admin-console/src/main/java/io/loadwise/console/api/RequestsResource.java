package io.loadwise.console.api;

import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.logging.RecentRequest;
import io.loadwise.dispatcher.logging.RecentRequests;
import io.loadwise.dispatcher.metrics.Termination;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/requests}: the dispatcher's last requests, newest first, that the console's live request page
 * polls (issue 33, item 6). Query parameters, each optional and combined with "and": {@code status} a class
 * ({@code 2xx} .. {@code 5xx}), {@code cluster}, {@code node}, {@code route} (exact names), {@code termination}
 * (two letters of the termination table) and {@code limit} (1 to {@value RecentRequests#CAPACITY}, default
 * {@value #DEFAULT_LIMIT}).
 */
final class RequestsResource {

    static final int DEFAULT_LIMIT = 100;
    private static final int MAX_NAME = 200;

    private final ClusterControl control;

    RequestsResource(ClusterControl control) {
        this.control = control;
    }

    Reply list(ApiCall call) throws ApiException {
        control.keepRecentRequests(); // someone watches: keep recording for another lease, access log or not
        Filter filter = Filter.of(call);
        int limit = limit(call);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (RecentRequest r : control.recentRequests()) {
            if (rows.size() == limit) {
                break;
            }
            if (filter.matches(r)) {
                rows.add(view(r));
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("capacity", RecentRequests.CAPACITY);
        body.put("count", rows.size());
        body.put("requests", rows);
        return Reply.ok(body);
    }

    private static int limit(ApiCall call) throws ApiException {
        Integer limit = call.queryInt("limit", 1, RecentRequests.CAPACITY);
        return limit == null ? DEFAULT_LIMIT : limit;
    }

    static Map<String, Object> view(RecentRequest r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("time", Instant.ofEpochMilli(r.startMillis()).toString());
        m.put("client", r.client());
        m.put("listener", r.listener());
        m.put("route", r.route());
        m.put("cluster", r.cluster());
        m.put("node", r.node());
        m.put("method", r.method());
        m.put("target", r.target());
        m.put("protocol", r.protocol());
        m.put("status", r.status() < 0 ? null : r.status());
        m.put("termination", r.termination());
        m.put("retries", r.retries() < 0 ? null : r.retries());
        m.put("bytesIn", r.bytesIn() < 0 ? null : r.bytesIn());
        m.put("bytesOut", r.bytesOut() < 0 ? null : r.bytesOut());
        m.put("totalMs", r.totalMillis() < 0 ? null : r.totalMillis());
        m.put("requestId", r.requestId());
        return m;
    }

    /** The query's conditions; {@code statusClass} 0 and {@code null} names match everything. */
    record Filter(int statusClass, String cluster, String node, String route, String termination) {

        static Filter of(ApiCall call) throws ApiException {
            return new Filter(statusClass(call.query("status")), name(call, "cluster"), name(call, "node"),
                    name(call, "route"), termination(call.query("termination")));
        }

        boolean matches(RecentRequest r) {
            return (statusClass == 0 || r.status() / 100 == statusClass)
                    && (cluster == null || cluster.equals(r.cluster()))
                    && (node == null || node.equals(r.node()))
                    && (route == null || route.equals(r.route()))
                    && (termination == null || termination.equals(r.termination()));
        }

        private static int statusClass(String text) throws ApiException {
            if (text == null || text.isEmpty()) {
                return 0;
            }
            if (text.length() == 3 && text.charAt(0) >= '1' && text.charAt(0) <= '5'
                    && (text.endsWith("xx") || text.endsWith("XX"))) {
                return text.charAt(0) - '0';
            }
            throw ApiException.badRequest("query parameter status: expected a status class 1xx, 2xx, 3xx, 4xx or 5xx");
        }

        private static String name(ApiCall call, String parameter) throws ApiException {
            String text = call.query(parameter);
            if (text == null || text.isEmpty()) {
                return null;
            }
            if (text.length() > MAX_NAME) {
                throw ApiException.badRequest("query parameter " + parameter + ": longer than " + MAX_NAME
                        + " characters");
            }
            return text;
        }

        private static String termination(String text) throws ApiException {
            if (text == null || text.isEmpty()) {
                return null;
            }
            if (Termination.index(text) < 0) {
                throw ApiException.badRequest("query parameter termination: expected two letters of the termination"
                        + " table (who: C P N T R -, phase: H Q C R D -), such as -- or NH");
            }
            return text;
        }
    }
}
