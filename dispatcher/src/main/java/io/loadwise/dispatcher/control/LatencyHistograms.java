package io.loadwise.dispatcher.control;

import io.loadwise.dispatcher.metrics.LatencyHistogram;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.loadwise.dispatcher.metrics.Termination;
import java.util.List;
import java.util.Map;

/**
 * Every latency histogram the dispatcher keeps, read at one moment for a scrape: per cluster and per node
 * (request duration, queue wait, connect wait) and per route of a listener (request duration). Only what exists
 * now is listed, so a removed node's or route's series leave the exposition with it.
 *
 * Read with them, the requests per termination state of each cluster and of each listener of {@code listeners[]}
 * (what it answered itself): counters, but of the same requests and scraped together.
 *
 * @param clusters in configuration order
 * @param routes per listener, in route order
 * @param terminations per cluster, then per listener of {@code listeners[]}
 */
public record LatencyHistograms(List<ClusterSeries> clusters, List<RouteSeries> routes,
        List<TerminationSeries> terminations) {

    public static final LatencyHistograms NONE = new LatencyHistograms(List.of(), List.of(), List.of());

    public LatencyHistograms {
        clusters = List.copyOf(clusters);
        routes = List.copyOf(routes);
        terminations = List.copyOf(terminations);
    }

    /**
     * Requests of a cluster ({@code listener} false) or a listener by termination state: only the states that
     * occurred, at most {@link io.loadwise.dispatcher.metrics.Termination#COUNT}, in the table's order.
     */
    public record TerminationSeries(boolean listener, String name, Map<String, Long> byState) {
        public TerminationSeries {
            byState = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(byState));
        }

        /** The states of {@code counts} that occurred. */
        public static TerminationSeries of(boolean listener, String name, Termination.Counts counts) {
            Map<String, Long> byState = new java.util.LinkedHashMap<>();
            for (int i = 0; i < Termination.COUNT; i++) {
                long n = counts.count(i);
                if (n > 0) {
                    byState.put(Termination.state(i), n);
                }
            }
            return new TerminationSeries(listener, name, byState);
        }
    }

    /** A cluster's own histograms and those of its nodes. */
    public record ClusterSeries(String cluster, TrafficCounters.Histograms totals, List<NodeSeries> nodes) {
        public ClusterSeries {
            nodes = List.copyOf(nodes);
        }
    }

    public record NodeSeries(String node, TrafficCounters.Histograms histograms) {
    }

    /** The request durations of one route, whatever answered (a node, a redirect, a fixed response). */
    public record RouteSeries(String listener, String route, LatencyHistogram.Reading duration) {
    }
}
