package io.loadwise.agent.load;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.FilterMetric;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.OrcaLoadReport;
import io.loadwise.wire.SeedMetric;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The load the servlet filter measured ({@link FilterMetric}), on every server: requests in flight, and
 * over the last second their rate, error rate (status 500 or above) and mean and p95 service time, and
 * ORCA's {@code application_utilization} ({@link OrcaLoadReport#APP_UTILIZATION}): the mean requests in flight
 * over the second (rate × mean service time) over the capacity, so that gRPC's and Envoy's
 * {@code qps / utilization} comes out as the node's throughput at full capacity. It runs after the application-server
 * source, in the full and the fast sample, and stands in for the two jvm-aware inputs the server did not
 * report because its adapter maps no MBean for them (an adapter that maps one which is absent, such as
 * Tomcat's queue without a shared executor, keeps it absent; the operator can unmap it to get this one):
 * <ul>
 * <li>{@code AMX_CONNS_Q_THRBSY%} (busy workers): {@code 100 * inFlight / capacity}, capped at 100, as
 *     mod_cluster's {@code BusyConnectorsLoadMetric} divides busy threads by the maximum;</li>
 * <li>{@code AMX_CONNS_Q_USED%} (queue): {@code 100 * queued / capacity}, capped at 100, where
 *     {@code queued} is the server's own count of waiting requests ({@code AMX_CONNS_QD}, Undertow's
 *     unbounded worker queue) plus the requests in flight beyond the capacity: those wait inside the
 *     application (on CPU, locks, the database), which is where they wait on a server whose thread pool
 *     grows on demand (Liberty).</li>
 * </ul>
 * {@code capacity} is {@code loadwise.agent.capacity}, else the server's {@code AMX_CONNS_Q_THRDSMAX}, else
 * 16 per available processor (Undertow's default number of worker threads).
 */
public final class FilterLoadSource implements MetricSource {

    /** Requests per processor assumed when neither the operator nor the server gives a capacity. */
    static final int DEFAULT_CAPACITY_PER_CPU = 16;

    private final RequestWindow window;
    private final LongSupplier monotonicMillis;
    private final int configuredCapacity;
    private final int defaultCapacity;
    private final boolean standIn;
    private final Supplier<Set<String>> serverMapped;
    private double serverThreadsMax = Double.NaN;
    private double serverQueued = Double.NaN;
    private volatile long trafficStartMillis = -1;

    /**
     * @param configuredCapacity the operator's capacity, or 0 to derive it
     * @param standIn whether to stand in for the queue and busy inputs the server does not report
     * @param serverMapped the metrics the server's adapter maps (asked on every sample: it is detected late)
     */
    public FilterLoadSource(RequestRecorder recorder, LongSupplier monotonicMillis, int configuredCapacity,
                            boolean standIn, int processors, Supplier<Set<String>> serverMapped) {
        this.window = new RequestWindow(recorder);
        this.monotonicMillis = monotonicMillis;
        this.configuredCapacity = configuredCapacity;
        this.defaultCapacity = DEFAULT_CAPACITY_PER_CPU * Math.max(1, processors);
        this.standIn = standIn;
        this.serverMapped = serverMapped;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.APP_SERVER;
    }

    @Override
    public void collect(MetricSink sink) {
        long now = monotonicMillis.getAsLong();
        RequestWindow.Summary s = window.summarise(now);
        if (trafficStartMillis < 0 && (s.inFlight() > 0 || s.completed() > 0)) {
            trafficStartMillis = now;
        }
        sink.put(FilterMetric.APP_RQST_INFLIGHT.metricName(), s.inFlight());
        sink.put(FilterMetric.APP_RQST_RATE.metricName(), s.ratePerSecond());
        sink.put(FilterMetric.APP_RQST_ERR_RATE.metricName(), s.errorRatePerSecond());
        sink.put(FilterMetric.APP_RQST_AVETIME.metricName(), s.meanMillis());
        sink.put(FilterMetric.APP_RQST_P95TIME.metricName(), s.p95Millis());
        // the fast sample reads neither: keep the full sample's
        Double threadsMax = sink.values().get(SeedMetric.AMX_CONNS_Q_THRDSMAX.seedName());
        if (threadsMax != null && threadsMax > 0) {
            serverThreadsMax = threadsMax;
        }
        Double queued = sink.values().get(SeedMetric.AMX_CONNS_QD.seedName());
        if (queued != null) {
            serverQueued = queued;
        }
        double capacity = capacity();
        sink.put(FilterMetric.APP_CAPACITY.metricName(), capacity);
        sink.put(OrcaLoadReport.APP_UTILIZATION, 100 * s.utilization(capacity));
        if (!standIn) {
            return;
        }
        Set<String> mapped = serverMapped.get();
        if (!mapped.contains(SeedMetric.AMX_CONNS_Q_THRBSY_PCT.seedName())) {
            sink.put(SeedMetric.AMX_CONNS_Q_THRBSY_PCT, Math.min(100, 100.0 * s.inFlight() / capacity));
        }
        if (!mapped.contains(SeedMetric.AMX_CONNS_Q_USED_PCT.seedName())) {
            double waiting = Math.max(0, s.inFlight() - capacity) + (Double.isNaN(serverQueued) ? 0 : serverQueued);
            sink.put(SeedMetric.AMX_CONNS_Q_USED_PCT, Math.min(100, 100.0 * waiting / capacity));
        }
    }

    private double capacity() {
        if (configuredCapacity > 0) {
            return configuredCapacity;
        }
        return Double.isNaN(serverThreadsMax) ? defaultCapacity : serverThreadsMax;
    }

    /**
     * Milliseconds since the sampler first saw a request, or -1 before that: lazily registered MBeans
     * (Liberty's session, JDBC and servlet statistics) appear only with traffic.
     */
    public long trafficMillis() {
        long start = trafficStartMillis;
        return start < 0 ? -1 : monotonicMillis.getAsLong() - start;
    }
}
