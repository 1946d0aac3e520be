package io.loadwise.console.store;

import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The series each kind of store can hold, in catalog order. A cluster store holds seed Table 2; a node
 * store can hold every metric of tables 3-5, Table 6 and the node's own Table 2 figures, and holds those
 * of {@link #always()} plus the ones its node has reported (a series it does not hold reads as unknown).
 */
public final class SeriesCatalog {

    /** Seed Table 2, in the order of {@link io.loadwise.dispatcher.metrics.MetricsSnapshot}. */
    static final List<Series> TABLE_2 = List.of(
            Series.of("TD_AVE_CONNS_ACT", SeriesGroup.DISPATCHER, "connections", "Active client connections"),
            Series.of("TD_AVE_RQSTS_ACT", SeriesGroup.DISPATCHER, "requests", "Active client transactions"),
            Series.of("TD_AVE_RSPS_TIME", SeriesGroup.DISPATCHER, "ms", "Latency: mean response time of completed transactions"),
            Series.of("TD_AVE_THROUGHPUT", SeriesGroup.DISPATCHER, "req/s", "Throughput: completed transactions per second"),
            Series.of("TD_AVE_FAIL_RQSTS", SeriesGroup.DISPATCHER, "req/s", "Failed transactions per second"),
            Series.of("TD_AVE_SRV_SELS", SeriesGroup.DISPATCHER, "sel/s", "Node selections per second"),
            Series.of("TD_AVE_SRV_SEL", SeriesGroup.DISPATCHER, "ms", "WT1: mean node selection time"),
            Series.of("TD_AVE_SRV_CONN_WAIT", SeriesGroup.DISPATCHER, "ms", "WT2: mean node connection time"),
            Series.of("TD_AVE_RQ_PROCTIME", SeriesGroup.DISPATCHER, "ms", "PT: mean transaction running time"),
            Series.of("TD_AVE_SLOWDOWN", SeriesGroup.DISPATCHER, "ratio", "Slowdown: (WT1 + WT2 + PT) / PT"),
            Series.of("TD_AVE_TRAF_IN", SeriesGroup.DISPATCHER, "MB/s", "Traffic received"),
            Series.of("TD_AVE_TRAF_OUT", SeriesGroup.DISPATCHER, "MB/s", "Traffic sent"));

    /**
     * The cluster's queue and retries (issue 15, items 4 and 5; not in the seed), named like Table 2, in the
     * order of the last three figures of {@link io.loadwise.dispatcher.metrics.MetricsSnapshot}.
     */
    static final List<Series> QUEUE_AND_RETRIES = List.of(
            Series.of("TD_QUEUE_LENGTH", SeriesGroup.DISPATCHER, "requests", "Requests waiting in the cluster's queue"),
            Series.of("TD_QUEUE_TIME", SeriesGroup.DISPATCHER, "ms", "Mean time in the queue of the requests that left it"),
            Series.of("TD_RETRIES", SeriesGroup.DISPATCHER, "req/s", "Requests retried on another node per second"));

    /** Seed Table 6. */
    static final List<Series> TABLE_6 = List.of(
            Series.of("NODE_NMA_RSPS_TIME", SeriesGroup.POLICY, "ms", "Node agent response time"),
            Series.of("NODE_AVAILABILITY%", SeriesGroup.POLICY, "%", "Node availability (successful agent polls)"),
            Series.of("TAP_NODE_LOAD%", SeriesGroup.POLICY, "%", "Policy: calculated node load"),
            Series.of("TAP_NODE_SEL", SeriesGroup.POLICY, "sel/s", "Policy: node selections per second"),
            Series.of("TAP_RQST_LASTTIME", SeriesGroup.POLICY, "ms", "Policy: last processing time (PT of the last second)"));

    /** Seed tables 3-5, in {@link SeedMetric} order. */
    static final List<Series> AGENT = agentSeries();

    public static final SeriesCatalog CLUSTER = new SeriesCatalog(concat(TABLE_2, QUEUE_AND_RETRIES),
            concat(TABLE_2, QUEUE_AND_RETRIES));
    /**
     * Every node store holds the dispatcher's own figures of the node (Table 2, selections and PT of the
     * last second); agent metrics and agent statistics only once the node reports them.
     */
    public static final SeriesCatalog NODE = new SeriesCatalog(concat(AGENT, TABLE_6, TABLE_2),
            concat(List.of(TABLE_6.get(3), TABLE_6.get(4)), TABLE_2));

    private final List<Series> series;
    private final boolean[] always;
    private final Map<String, Integer> indexByMetric = new LinkedHashMap<>();
    private final Map<String, Integer> indexByDsName = new LinkedHashMap<>();

    private SeriesCatalog(List<Series> series, List<Series> always) {
        this.series = List.copyOf(series);
        this.always = new boolean[series.size()];
        for (int i = 0; i < series.size(); i++) {
            if (indexByMetric.put(series.get(i).metric(), i) != null
                    || indexByDsName.put(series.get(i).dsName(), i) != null) {
                throw new IllegalStateException("duplicate series " + series.get(i).metric());
            }
        }
        for (Series s : always) {
            this.always[indexByMetric.get(s.metric())] = true;
        }
    }

    /** Every series, in catalog order. */
    public List<Series> series() {
        return series;
    }

    public int size() {
        return series.size();
    }

    /** The series of this seed metric name, or {@code null}. */
    public Series find(String metric) {
        Integer i = indexByMetric.get(metric);
        return i == null ? null : series.get(i);
    }

    /** The data source index of a metric, or -1. */
    public int indexOf(String metric) {
        Integer i = indexByMetric.get(metric);
        return i == null ? -1 : i;
    }

    /** The series every store of this kind holds, whether or not they are known yet. */
    public List<Series> always() {
        List<Series> out = new ArrayList<>();
        for (int i = 0; i < series.size(); i++) {
            if (always[i]) {
                out.add(series.get(i));
            }
        }
        return out;
    }

    /**
     * The series a store needs for a row of values in catalog order: those every store holds and those
     * with a known (non-NaN) value. A node store thereby holds the metrics its node really reports.
     */
    public List<Series> required(double[] row) {
        if (row.length != series.size()) {
            throw new IllegalArgumentException(row.length + " values for " + series.size() + " series");
        }
        List<Series> out = new ArrayList<>();
        for (int i = 0; i < series.size(); i++) {
            if (always[i] || !Double.isNaN(row[i])) {
                out.add(series.get(i));
            }
        }
        return out;
    }

    /** The series stored under this rrd4j data source name, or {@code null}. */
    public Series findByDsName(String dsName) {
        Integer i = indexByDsName.get(dsName);
        return i == null ? null : series.get(i);
    }

    /** The rrd4j data source names, in catalog order. */
    public List<String> dsNames() {
        return List.copyOf(indexByDsName.keySet());
    }

    /** The metric names, in catalog order (for "unknown metric" errors). */
    public List<String> metricNames() {
        return List.copyOf(indexByMetric.keySet());
    }

    /** Series by group, groups in {@link SeriesGroup} order, empty groups left out. */
    public Map<SeriesGroup, List<Series>> byGroup() {
        Map<SeriesGroup, List<Series>> out = new LinkedHashMap<>();
        for (SeriesGroup group : SeriesGroup.values()) {
            List<Series> members = new ArrayList<>();
            for (Series s : series) {
                if (s.group() == group) {
                    members.add(s);
                }
            }
            if (!members.isEmpty()) {
                out.put(group, Collections.unmodifiableList(members));
            }
        }
        return out;
    }

    private static List<Series> agentSeries() {
        List<Series> out = new ArrayList<>();
        for (SeedMetric m : SeedMetric.values()) {
            out.add(Series.of(m.seedName(), groupOf(m), m.unit(), m.description()));
        }
        return List.copyOf(out);
    }

    private static SeriesGroup groupOf(SeedMetric metric) {
        if (metric.group() == MetricGroup.JVM) {
            return SeriesGroup.JVM;
        }
        if (metric.group() == MetricGroup.APP_SERVER) {
            return SeriesGroup.APPSERVER;
        }
        return metric.seedName().startsWith("NET_") ? SeriesGroup.OS_NETWORK : SeriesGroup.OS;
    }

    @SafeVarargs
    private static List<Series> concat(List<Series>... parts) {
        List<Series> out = new ArrayList<>();
        for (List<Series> part : parts) {
            out.addAll(part);
        }
        return out;
    }
}
