package io.loadwise.console.prometheus;

import io.loadwise.console.prometheus.TextExposition.Type;
import io.loadwise.console.store.LastSecond;
import io.loadwise.console.store.SeriesCatalog;
import io.loadwise.dispatcher.config.DrainMode;
import io.loadwise.dispatcher.control.AgentPolling;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.TracingStatus;
import io.loadwise.dispatcher.control.ClusterStatus;
import io.loadwise.dispatcher.control.DrainStatus;
import io.loadwise.dispatcher.control.GroupStatus;
import io.loadwise.dispatcher.control.HealthStatus;
import io.loadwise.dispatcher.control.LatencyHistograms;
import io.loadwise.dispatcher.tls.CertificateInfo;
import io.loadwise.dispatcher.control.NodeStatus;
import io.loadwise.dispatcher.control.RateLimitStatus;
import io.loadwise.dispatcher.control.RoutedListenerStatus;
import io.loadwise.dispatcher.metrics.CounterReading;
import io.loadwise.dispatcher.metrics.LatencyHistogram;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import io.loadwise.policy.AgentSample;
import java.util.List;
import java.util.Map;

/**
 * What {@code GET /metrics} shows: counters and gauges of every cluster and node, read from
 * {@link ClusterControl} at scrape time. Cluster-wide families are named {@code loadwise_cluster_*} and
 * carry a {@code cluster} label; per-node families carry {@code cluster} and {@code node}, so summing a
 * node family never counts a cluster total twice. Seed metrics (Table 2 of the last second, Table 6,
 * the agent's tables 3-5) keep their seed names in a {@code metric} label of one gauge family each,
 * rather than as sanitised metric names, so they match the console's graphs and the seed's tables.
 * See {@code docs/metrics.md}.
 */
public final class PrometheusMetrics {

    public static final String CONTENT_TYPE = TextExposition.CONTENT_TYPE;
    public static final String OPENMETRICS_CONTENT_TYPE = TextExposition.OPENMETRICS_CONTENT_TYPE;

    /** Table 2 with the queue and retries, in {@link LastSecond#cluster} order; a node's are the first 12. */
    private static final List<String> CLUSTER_FIGURES = SeriesCatalog.CLUSTER.metricNames();

    private PrometheusMetrics() {
    }

    /** The whole exposition document for the current state of {@code control}, in the text format 0.0.4. */
    public static String scrape(ClusterControl control) {
        return scrape(control, false);
    }

    /** The whole exposition document, in OpenMetrics 1.0 or in the text format 0.0.4. */
    public static String scrape(ClusterControl control, boolean openMetrics) {
        String replica = control.replicaId();
        TextExposition out = replica == null ? new TextExposition() : new TextExposition("replica", replica);
        declare(out);
        declareCounters(out, "loadwise_cluster_", "of the cluster");
        declareCounters(out, "loadwise_", "sent to the node");
        out.family("loadwise_cluster_last_second", Type.GAUGE,
                "Seed Table 2 figures of the cluster for the last second (metric = seed name; ms, req/s, MB/s)");
        out.family("loadwise_node_last_second", Type.GAUGE,
                "Seed Table 2 figures of the node for the last second (metric = seed name; ms, req/s, MB/s)");
        out.family("loadwise_cluster_active_priority", Type.GAUGE,
                "Priority of the least preferred group in use (the backup group: the largest priority plus 1)");
        out.family("loadwise_cluster_backup_active", Type.GAUGE, "1 while the cluster's backup group is in use, else 0");
        out.family("loadwise_cluster_panic", Type.GAUGE,
                "1 while picks spread over every node that accepts connections (panic threshold), else 0");
        out.family("loadwise_node_up", Type.GAUGE, "1 when the node is enabled, not draining and healthy, else 0");
        out.family("loadwise_node_weight", Type.GAUGE, "Configured weight of the node");
        out.family("loadwise_node_draining", Type.GAUGE,
                "1 while the node drains (mode = immediate or sessions; state = draining, drained, deadline-passed)");
        out.family("loadwise_node_drain_sessions_left", Type.GAUGE,
                "Active sessions a draining node's agent reports; absent when unknown");
        out.family("loadwise_node_drain_pinned_last_minute", Type.GAUGE,
                "Requests pinned to a session-draining node that reached it during the last minute");
        out.family("loadwise_node_health_up", Type.GAUGE,
                "Active health check: 1 up, 0 down; absent while no check has concluded or none is configured");
        out.family("loadwise_node_health_check_ok", Type.GAUGE, "1 when the latest active health check passed, else 0");
        out.family("loadwise_node_health_check_duration_seconds", Type.GAUGE, "How long the latest health check took");
        out.family("loadwise_node_ejected", Type.GAUGE, "1 while outlier detection holds the node out, else 0");
        out.family("loadwise_node_slow_start_share", Type.GAUGE,
                "Share of its picks the node keeps while it ramps up after a return (1 when it does not ramp)");
        out.family("loadwise_node_policy_metric", Type.GAUGE,
                "Seed Table 6 figures of the node (NODE_NMA_RSPS_TIME ms, NODE_AVAILABILITY% 0-100)");
        out.family("loadwise_agent_metric", Type.GAUGE,
                "Latest metric reported by the node agent (metric = seed name, tables 3-5; % 0-100, MB, ms)");
        out.family("loadwise_agent_sample_age_seconds", Type.GAUGE, "Age of the node agent's latest sample");
        out.family("loadwise_tls_certificate_expiry_seconds", Type.GAUGE,
                "Seconds until the listener's certificate expires (negative once expired)");
        long now = System.currentTimeMillis();
        routing(out, control);
        histograms(out, control.latencyHistograms());
        for (ClusterStatus cluster : control.clusterStatuses()) {
            String name = cluster.name();
            if (cluster.listener() != null && cluster.listener().proxyProtocol() != null) {
                proxyProtocol(out, "loadwise_cluster_proxy_protocol_total", cluster.listener().proxyProtocol(), "cluster",
                        name);
            }
            if (cluster.listener() != null) {
                for (CertificateInfo certificate : cluster.listener().certificates()) {
                    out.sample("loadwise_tls_certificate_expiry_seconds",
                            certificate.secondsToExpiry(java.time.Instant.ofEpochMilli(now)), "cluster", name,
                            "subject", certificate.subject(), "server_names",
                            String.join(",", certificate.serverNames()));
                }
            }
            counters(out, "loadwise_cluster_", cluster.totals(), "cluster", name);
            if (cluster.affinity() != null) {
                out.sample("loadwise_cluster_domain_partner_requests_total", cluster.affinity().domainPartner(),
                        "cluster", name);
            }
            GroupStatus groups = cluster.groups();
            if (groups != null) {
                out.sample("loadwise_cluster_active_priority", groups.activePriority(), "cluster", name);
                out.sample("loadwise_cluster_backup_active", groups.backupActive() ? 1 : 0, "cluster", name);
                out.sample("loadwise_cluster_panic", groups.panic() ? 1 : 0, "cluster", name);
            }
            MetricsSnapshot clusterSecond = LastSecond.of(control.history(name), now);
            if (clusterSecond != null) {
                lastSecond(out, "loadwise_cluster_last_second", LastSecond.cluster(clusterSecond), "cluster", name);
            }
            for (NodeStatus node : cluster.nodes()) {
                String[] labels = {"cluster", name, "node", node.name()};
                counters(out, "loadwise_", node.counters(), labels);
                MetricsSnapshot nodeSecond = LastSecond.of(control.nodeHistory(name, node.name()), now);
                if (nodeSecond != null) {
                    lastSecond(out, "loadwise_node_last_second", LastSecond.table2(nodeSecond), labels);
                }
                out.sample("loadwise_node_up", node.inService() ? 1 : 0, labels);
                out.sample("loadwise_node_weight", node.weight(), labels);
                drain(out, node.drain(), labels);
                health(out, node.health(), labels);
                out.sample("loadwise_node_ejected", node.ejected() ? 1 : 0, labels);
                out.sample("loadwise_node_slow_start_share", node.slowStartShare(), labels);
                AgentPolling stats = node.agent().polling();
                if (stats != null) {
                    out.sample("loadwise_node_policy_metric", stats.lastPollMillis(),
                            with(labels, "metric", "NODE_NMA_RSPS_TIME"));
                    out.sample("loadwise_node_policy_metric", stats.availabilityPercent(),
                            with(labels, "metric", "NODE_AVAILABILITY%"));
                }
                AgentSample sample = node.agent().latestSample();
                if (sample != null) {
                    out.sample("loadwise_agent_sample_age_seconds", node.agent().sampleAgeMillis() / 1000.0, labels);
                    for (Map.Entry<String, Double> m : sample.metrics().entrySet()) {
                        out.sample("loadwise_agent_metric", m.getValue(), with(labels, "metric", m.getKey()));
                    }
                }
            }
        }
        return out.render(openMetrics);
    }

    /** The name of every family {@link #scrape} may emit: what {@code docs/metrics.md} must list. */
    static java.util.Set<String> familyNames() {
        TextExposition out = new TextExposition();
        declare(out);
        return out.familyNames();
    }

    private static void declare(TextExposition out) {
        declareCounters(out, "loadwise_cluster_", "of the cluster");
        declareCounters(out, "loadwise_", "sent to the node");
        out.family("loadwise_cluster_last_second", Type.GAUGE,
                "Seed Table 2 figures of the cluster for the last second (metric = seed name; ms, req/s, MB/s)");
        out.family("loadwise_node_last_second", Type.GAUGE,
                "Seed Table 2 figures of the node for the last second (metric = seed name; ms, req/s, MB/s)");
        out.family("loadwise_cluster_active_priority", Type.GAUGE,
                "Priority of the least preferred group in use (the backup group: the largest priority plus 1)");
        out.family("loadwise_cluster_backup_active", Type.GAUGE, "1 while the cluster's backup group is in use, else 0");
        out.family("loadwise_cluster_panic", Type.GAUGE,
                "1 while picks spread over every node that accepts connections (panic threshold), else 0");
        out.family("loadwise_node_up", Type.GAUGE, "1 when the node is enabled, not draining and healthy, else 0");
        out.family("loadwise_node_weight", Type.GAUGE, "Configured weight of the node");
        out.family("loadwise_node_health_up", Type.GAUGE,
                "Active health check: 1 up, 0 down; absent while no check has concluded or none is configured");
        out.family("loadwise_node_health_check_ok", Type.GAUGE, "1 when the latest active health check passed, else 0");
        out.family("loadwise_node_health_check_duration_seconds", Type.GAUGE, "How long the latest health check took");
        out.family("loadwise_node_ejected", Type.GAUGE, "1 while outlier detection holds the node out, else 0");
        out.family("loadwise_node_slow_start_share", Type.GAUGE,
                "Share of its picks the node keeps while it ramps up after a return (1 when it does not ramp)");
        out.family("loadwise_node_policy_metric", Type.GAUGE,
                "Seed Table 6 figures of the node (NODE_NMA_RSPS_TIME ms, NODE_AVAILABILITY% 0-100)");
        out.family("loadwise_agent_metric", Type.GAUGE,
                "Latest metric reported by the node agent (metric = seed name, tables 3-5; % 0-100, MB, ms)");
        out.family("loadwise_agent_sample_age_seconds", Type.GAUGE, "Age of the node agent's latest sample");
        out.family("loadwise_tls_certificate_expiry_seconds", Type.GAUGE,
                "Seconds until the listener's certificate expires (negative once expired)");
        out.family("loadwise_cluster_domain_partner_requests_total", Type.COUNTER,
                "Pinned requests whose node was gone, drained or failed them, sent to another node of its domain");
        declareRouting(out);
        declareHistograms(out);
    }

    private static void declareHistograms(TextExposition out) {
        out.family("loadwise_cluster_request_duration_seconds", Type.HISTOGRAM,
                "Completed requests of the cluster, head received to response complete (the client's view)");
        out.family("loadwise_cluster_queue_wait_seconds", Type.HISTOGRAM,
                "Time requests spent in the cluster's queue before a node took them or they gave up");
        out.family("loadwise_cluster_connect_wait_seconds", Type.HISTOGRAM,
                "Time requests of the cluster waited for a node connection, new or pooled");
        out.family("loadwise_node_request_duration_seconds", Type.HISTOGRAM,
                "Completed requests sent to the node, head received to response complete");
        out.family("loadwise_node_connect_wait_seconds", Type.HISTOGRAM,
                "Time requests waited for a connection to the node, new or pooled");
        out.family("loadwise_route_request_duration_seconds", Type.HISTOGRAM,
                "Requests a route of a listener took, head received to response complete, whatever answered");
        out.family("loadwise_cluster_terminations_total", Type.COUNTER,
                "HTTP requests of the cluster by termination state (the access log's two letters; only states seen)");
        out.family("loadwise_listener_terminations_total", Type.COUNTER,
                "HTTP requests a listener of listeners[] answered itself, by termination state (only states seen)");
    }

    private static void histograms(TextExposition out, LatencyHistograms all) {
        for (LatencyHistograms.ClusterSeries cluster : all.clusters()) {
            String[] labels = {"cluster", cluster.cluster()};
            histogram(out, "loadwise_cluster_request_duration_seconds", cluster.totals().duration(), labels);
            histogram(out, "loadwise_cluster_queue_wait_seconds", cluster.totals().queueWait(), labels);
            histogram(out, "loadwise_cluster_connect_wait_seconds", cluster.totals().connectWait(), labels);
            for (LatencyHistograms.NodeSeries node : cluster.nodes()) {
                String[] nodeLabels = {"cluster", cluster.cluster(), "node", node.node()};
                histogram(out, "loadwise_node_request_duration_seconds", node.histograms().duration(), nodeLabels);
                histogram(out, "loadwise_node_connect_wait_seconds", node.histograms().connectWait(), nodeLabels);
            }
        }
        for (LatencyHistograms.RouteSeries route : all.routes()) {
            histogram(out, "loadwise_route_request_duration_seconds", route.duration(), "listener", route.listener(),
                    "route", route.route());
        }
        for (LatencyHistograms.TerminationSeries t : all.terminations()) {
            String family = t.listener() ? "loadwise_listener_terminations_total" : "loadwise_cluster_terminations_total";
            for (Map.Entry<String, Long> e : t.byState().entrySet()) {
                out.sample(family, e.getValue(), t.listener() ? "listener" : "cluster", t.name(), "state", e.getKey());
            }
        }
    }

    private static void proxyProtocol(TextExposition out, String family, RoutedListenerStatus.ProxyProtocolCounts proxy,
            String label, String name) {
        out.sample(family, proxy.accepted(), label, name, "outcome", "accepted");
        out.sample(family, proxy.untrusted(), label, name, "outcome", "untrusted");
        out.sample(family, proxy.invalid(), label, name, "outcome", "invalid");
        out.sample(family, proxy.timeout(), label, name, "outcome", "timeout");
    }

    private static void histogram(TextExposition out, String family, LatencyHistogram.Reading reading,
            String... labels) {
        out.histogram(family, LatencyHistogram.BOUNDS_SECONDS, reading.cumulative(), reading.exemplars(),
                reading.sumSeconds(), labels);
    }

    private static void declareRouting(TextExposition out) {
        out.family("loadwise_route_requests_total", Type.COUNTER,
                "Requests a route of a listener took, by the status class answered (a client that left counts as 4xx)");
        out.family("loadwise_listener_active_connections", Type.GAUGE, "Client connections open now on the listener");
        out.family("loadwise_listener_rejected_per_client_total", Type.COUNTER,
                "Connections the listener refused because one client held maxConnectionsPerClient");
        out.family("loadwise_cluster_proxy_protocol_total", Type.COUNTER,
                "PROXY protocol headers on the cluster's own listen by outcome: accepted, or the connection closed (untrusted, invalid, timeout)");
        out.family("loadwise_listener_proxy_protocol_total", Type.COUNTER,
                "PROXY protocol headers on the listener by outcome: accepted, or the connection closed (untrusted, invalid, timeout)");
        out.family("loadwise_listener_quic_connections_total", Type.COUNTER,
                "QUIC (HTTP/3) connections the listener accepted, their address validated");
        out.family("loadwise_listener_quic_connections", Type.GAUGE, "QUIC (HTTP/3) connections open now on the listener");
        out.family("loadwise_listener_quic_refused_total", Type.COUNTER,
                "QUIC (HTTP/3) refusals on the listener by reason: connection_limit, invalid_token, stream, excessive_load");
        out.family("loadwise_listener_quic_retries_total", Type.COUNTER,
                "QUIC Retry packets the listener sent to validate client addresses");
        out.family("loadwise_listener_quic_streams_total", Type.COUNTER, "HTTP/3 request streams opened on the listener");
        out.family("loadwise_rate_limited_total", Type.COUNTER, "Requests answered 429 by the named rate limit");
        out.family("loadwise_rate_limit_keys", Type.GAUGE, "Keys (clients) in the rate limit's table now");
        out.family("loadwise_rate_limit_max_keys", Type.GAUGE, "Keys the rate limit's table holds at most");
        out.family("loadwise_rate_limit_table_bytes", Type.GAUGE, "Memory of the rate limit's key table, approximately");
        out.family("loadwise_rate_limit_enforced_requests_per_second", Type.GAUGE,
                "Requests per second per key this replica enforces: requestsPerSecond / live replicas");
        out.family("loadwise_access_log_dropped_total", Type.COUNTER,
                "Access log records dropped because the log's writer fell behind");
        out.family("loadwise_acme_certificates_issued_total", Type.COUNTER,
                "Certificates the ACME CA issued for the TLS listener (first and renewals)");
        out.family("loadwise_acme_orders_failed_total", Type.COUNTER,
                "ACME orders that failed (CA unreachable or refusing, a check that failed); the certificate in use stays");
        out.family("loadwise_acme_certificate_expiry_timestamp_seconds", Type.GAUGE,
                "When the certificate the ACME listener serves expires, Unix time");
        out.family("loadwise_tracing_spans_exported_total", Type.COUNTER, "Spans the OTLP collector accepted");
        out.family("loadwise_tracing_spans_failed_total", Type.COUNTER,
                "Spans in export batches the OTLP collector could not be given (unreachable, refusing, too slow)");
        out.family("loadwise_tracing_spans_dropped_total", Type.COUNTER,
                "Spans dropped because the export queue was full (a slow or unreachable collector)");
    }

    private static void routing(TextExposition out, ClusterControl control) {
        out.sample("loadwise_access_log_dropped_total", control.accessLogDropped());
        TracingStatus tracing = control.tracing();
        out.sample("loadwise_tracing_spans_exported_total", tracing.spansExported());
        out.sample("loadwise_tracing_spans_failed_total", tracing.spansFailed());
        out.sample("loadwise_tracing_spans_dropped_total", tracing.spansDropped());
        control.acmeStatus().forEach((listener, figures) -> {
            out.sample("loadwise_acme_certificates_issued_total", figures.issued(), "listener", listener);
            out.sample("loadwise_acme_orders_failed_total", figures.failed(), "listener", listener);
            if (figures.notAfter() != null) {
                out.sample("loadwise_acme_certificate_expiry_timestamp_seconds", figures.notAfter().getEpochSecond(),
                        "listener", listener);
            }
        });
        for (RoutedListenerStatus listener : control.listenerStatuses()) {
            String name = listener.name();
            out.sample("loadwise_listener_active_connections", listener.connections(), "listener", name);
            out.sample("loadwise_listener_rejected_per_client_total", listener.rejectedPerClient(), "listener", name);
            if (listener.proxyProtocol() != null) {
                proxyProtocol(out, "loadwise_listener_proxy_protocol_total", listener.proxyProtocol(), "listener", name);
            }
            quic(out, name, listener.http3());
            for (RoutedListenerStatus.RouteStatus route : listener.routes()) {
                for (int k = 0; k < route.byStatusClass().size(); k++) {
                    out.sample("loadwise_route_requests_total", route.byStatusClass().get(k), "listener", name,
                            "route", route.name(), "code_class", (k + 1) + "xx");
                }
            }
        }
        for (ClusterStatus cluster : control.clusterStatuses()) { // a cluster's own listener: "cluster <name>"
            if (cluster.listener() != null) {
                quic(out, "cluster " + cluster.name(), cluster.listener().http3());
            }
        }
        for (RateLimitStatus limit : control.rateLimitStatuses()) {
            String name = limit.name();
            out.sample("loadwise_rate_limited_total", limit.limited(), "limit", name);
            out.sample("loadwise_rate_limit_keys", limit.keys(), "limit", name);
            out.sample("loadwise_rate_limit_max_keys", limit.maxKeys(), "limit", name);
            out.sample("loadwise_rate_limit_table_bytes", limit.tableBytes(), "limit", name);
            out.sample("loadwise_rate_limit_enforced_requests_per_second", limit.enforcedRequestsPerSecond(),
                    "limit", name);
        }
    }

    private static void drain(TextExposition out, DrainStatus drain, String[] labels) {
        if (drain == null) {
            return;
        }
        out.sample("loadwise_node_draining", 1, with(with(labels, "mode", drain.mode().id()), "state", drain.state()));
        if (drain.sessionsLeft() >= 0) {
            out.sample("loadwise_node_drain_sessions_left", drain.sessionsLeft(), labels);
        }
        if (drain.mode() == DrainMode.SESSIONS) {
            out.sample("loadwise_node_drain_pinned_last_minute", drain.pinnedLastMinute(), labels);
        }
    }

    private static void declareCounters(TextExposition out, String prefix, String whose) {
        out.family(prefix + "requests_total", Type.COUNTER, "Requests finished (completed or failed) " + whose);
        out.family(prefix + "requests_failed_total", Type.COUNTER, "Requests failed " + whose);
        out.family(prefix + "connections_total", Type.COUNTER, "Client connections (or TCP tunnels) opened " + whose);
        out.family(prefix + "selections_total", Type.COUNTER, "Node selections by the policy " + whose);
        out.family(prefix + "bytes_in_total", Type.COUNTER, "Bytes received from clients " + whose);
        out.family(prefix + "bytes_out_total", Type.COUNTER, "Bytes sent to clients " + whose);
        out.family(prefix + "ejections_total", Type.COUNTER, 
                prefix.contains("cluster") ? "Outlier ejections of the cluster's nodes" : "Outlier ejections of the node");
        if (prefix.contains("cluster")) {
            out.family(prefix + "retries_total", Type.COUNTER,
                    "Requests sent again to another node after a failure before any response byte");
            out.family(prefix + "queue_waits_total", Type.COUNTER, "Requests that stopped waiting in the cluster's queue");
            out.family(prefix + "queue_seconds_total", Type.COUNTER, "Time those requests spent in the queue");
            out.family(prefix + "queue_length", Type.GAUGE, "Requests waiting in the cluster's queue now");
        }
        out.family(prefix + "active_connections", Type.GAUGE, "Client connections open now " + whose);
        out.family(prefix + "active_requests", Type.GAUGE, "Requests in progress now " + whose);
    }

    private static void counters(TextExposition out, String prefix, CounterReading r, String... labels) {
        out.sample(prefix + "requests_total", r.completed() + r.failed(), labels);
        out.sample(prefix + "requests_failed_total", r.failed(), labels);
        out.sample(prefix + "connections_total", r.connections(), labels);
        out.sample(prefix + "selections_total", r.selections(), labels);
        out.sample(prefix + "bytes_in_total", r.bytesIn(), labels);
        out.sample(prefix + "bytes_out_total", r.bytesOut(), labels);
        out.sample(prefix + "ejections_total", r.ejections(), labels);
        if (prefix.contains("cluster")) {
            out.sample(prefix + "retries_total", r.retries(), labels);
            out.sample(prefix + "queue_waits_total", r.queueWaits(), labels);
            out.sample(prefix + "queue_seconds_total", r.queueNanos() / 1e9, labels);
            out.sample(prefix + "queue_length", r.queueLength(), labels);
        }
        out.sample(prefix + "active_connections", r.activeConnections(), labels);
        out.sample(prefix + "active_requests", r.activeRequests(), labels);
    }

    private static void health(TextExposition out, HealthStatus health, String... labels) {
        if (!health.checked()) {
            return;
        }
        if (!"unknown".equals(health.state())) {
            out.sample("loadwise_node_health_up", "up".equals(health.state()) ? 1 : 0, labels);
        }
        HealthStatus.LastCheck last = health.lastCheck();
        if (last != null) {
            out.sample("loadwise_node_health_check_ok", last.ok() ? 1 : 0, labels);
            out.sample("loadwise_node_health_check_duration_seconds", last.durationMillis() / 1000.0, labels);
        }
    }

    private static void lastSecond(TextExposition out, String family, double[] values, String... labels) {
        for (int i = 0; i < values.length; i++) {
            out.sample(family, values[i], with(labels, "metric", CLUSTER_FIGURES.get(i)));
        }
    }

    private static String[] with(String[] labels, String name, String value) {
        String[] out = java.util.Arrays.copyOf(labels, labels.length + 2);
        out[labels.length] = name;
        out[labels.length + 1] = value;
        return out;
    }

    /** The QUIC series of one listener ({@code null}: it serves no HTTP/3). */
    private static void quic(TextExposition out, String name, io.loadwise.dispatcher.metrics.QuicCounts quic) {
        if (quic == null) {
            return;
        }
        out.sample("loadwise_listener_quic_connections_total", quic.connections(), "listener", name);
        out.sample("loadwise_listener_quic_connections", quic.open(), "listener", name);
        out.sample("loadwise_listener_quic_refused_total", quic.connectionsRefused(), "listener", name,
                "reason", "connection_limit");
        out.sample("loadwise_listener_quic_refused_total", quic.invalidTokens(), "listener", name,
                "reason", "invalid_token");
        out.sample("loadwise_listener_quic_refused_total", quic.streamsRefused(), "listener", name, "reason", "stream");
        out.sample("loadwise_listener_quic_refused_total", quic.excessiveLoad(), "listener", name,
                "reason", "excessive_load");
        out.sample("loadwise_listener_quic_retries_total", quic.retries(), "listener", name);
        out.sample("loadwise_listener_quic_streams_total", quic.streams(), "listener", name);
    }
}
