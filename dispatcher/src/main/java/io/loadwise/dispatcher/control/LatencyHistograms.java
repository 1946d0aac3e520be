package io.loadwise.dispatcher.control;

import io.loadwise.dispatcher.metrics.LatencyHistogram;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import java.util.List;

/**
 * Every latency histogram the dispatcher keeps, read at one moment for a scrape: per cluster and per node
 * (request duration, queue wait, connect wait) and per route of a listener (request duration). Only what exists
 * now is listed, so a removed node's or route's series leave the exposition with it.
 *
 * @param clusters in configuration order
 * @param routes per listener, in route order
 */
public record LatencyHistograms(List<ClusterSeries> clusters, List<RouteSeries> routes) {

    public static final LatencyHistograms NONE = new LatencyHistograms(List.of(), List.of());

    public LatencyHistograms {
        clusters = List.copyOf(clusters);
        routes = List.copyOf(routes);
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
