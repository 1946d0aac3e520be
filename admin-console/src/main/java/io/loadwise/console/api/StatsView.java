package io.loadwise.console.api;

import io.loadwise.dispatcher.metrics.CounterReading;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON shapes of the statistics: seed Table 2 per second, Table 8 totals and averages. */
final class StatsView {

    private StatsView() {
    }

    /** One second of Table 2 figures keyed by the seed's names; a figure with no sample is null. */
    static Map<String, Object> table2(MetricsSnapshot s) {
        if (s == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("epochMillis", s.epochMillis());
        m.put("TD_AVE_CONNS_ACT", s.activeConnections());
        m.put("TD_AVE_RQSTS_ACT", s.activeRequests());
        m.put("TD_AVE_RSPS_TIME", Figures.finite(s.latencyMillis()));
        m.put("TD_AVE_THROUGHPUT", Figures.finite(s.throughput()));
        m.put("TD_AVE_FAIL_RQSTS", Figures.finite(s.failed()));
        m.put("TD_AVE_SRV_SELS", Figures.finite(s.selections()));
        m.put("TD_AVE_SRV_SEL", Figures.finite(s.selectionMillis()));
        m.put("TD_AVE_SRV_CONN_WAIT", Figures.finite(s.connectWaitMillis()));
        m.put("TD_AVE_RQ_PROCTIME", Figures.finite(s.processingMillis()));
        m.put("TD_AVE_SLOWDOWN", Figures.finite(s.slowdown()));
        m.put("TD_AVE_TRAF_IN", Figures.finite(s.trafficInMBps()));
        m.put("TD_AVE_TRAF_OUT", Figures.finite(s.trafficOutMBps()));
        return m;
    }

    /** A cluster's second: Table 2, then its queue and retries (issue 15; not in the seed). */
    static Map<String, Object> clusterTable2(MetricsSnapshot s) {
        Map<String, Object> m = table2(s);
        if (m != null) {
            m.put("TD_QUEUE_LENGTH", s.queueLength());
            m.put("TD_QUEUE_TIME", Figures.finite(s.queueMillis()));
            m.put("TD_RETRIES", Figures.finite(s.retries()));
        }
        return m;
    }

    /**
     * Totals since start (seed Table 8): samples are completed plus failed requests; means are per
     * sample that has the figure. Slowdown counts a wait with no sample as 0, like the per-second figure.
     */
    static Map<String, Object> totals(CounterReading r) {
        long samples = r.completed() + r.failed();
        Double wt1 = Figures.meanMillis(r.selectionNanos(), r.selections());
        Double wt2 = Figures.meanMillis(r.connectWaitNanos(), r.connectWaits());
        Double pt = Figures.meanMillis(r.processingNanos(), r.completed());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("samples", samples);
        m.put("completed", r.completed());
        m.put("failed", r.failed());
        m.put("failedPercent", samples == 0 ? null : 100.0 * r.failed() / samples);
        m.put("connections", r.connections());
        m.put("activeConnections", r.activeConnections());
        m.put("activeRequests", r.activeRequests());
        m.put("latencyMillis", Figures.meanMillis(r.latencyNanos(), r.completed()));
        m.put("wt1Millis", wt1);
        m.put("wt2Millis", wt2);
        m.put("ptMillis", pt);
        m.put("slowdown", pt == null || pt <= 0 ? null
                : ((wt1 == null ? 0 : wt1) + (wt2 == null ? 0 : wt2) + pt) / pt);
        m.put("selections", r.selections());
        m.put("bytesIn", r.bytesIn());
        m.put("bytesOut", r.bytesOut());
        return m;
    }

    /** A cluster's totals: Table 8, then retries and the queue (issue 15). */
    static Map<String, Object> clusterTotals(CounterReading r) {
        Map<String, Object> m = totals(r);
        m.put("retries", r.retries());
        m.put("queueLength", r.queueLength());
        m.put("queueMillis", Figures.meanMillis(r.queueNanos(), r.queueWaits()));
        return m;
    }

    /** Per-second averages over the retained history (Table 8's Active Conns, Throughput, Node Sels). */
    static Map<String, Object> averages(List<MetricsSnapshot> history) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seconds", history.size());
        double conns = 0;
        double throughput = 0;
        double selections = 0;
        double slowdown = 0;
        int slowdownSeconds = 0;
        for (MetricsSnapshot s : history) {
            conns += s.activeConnections();
            throughput += s.throughput();
            selections += s.selections();
            if (Double.isFinite(s.slowdown())) {
                slowdown += s.slowdown();
                slowdownSeconds++;
            }
        }
        int n = history.size();
        m.put("activeConnections", n == 0 ? null : conns / n);
        m.put("throughput", n == 0 ? null : throughput / n);
        m.put("selections", n == 0 ? null : selections / n);
        m.put("slowdown", slowdownSeconds == 0 ? null : slowdown / slowdownSeconds);
        return m;
    }
}
