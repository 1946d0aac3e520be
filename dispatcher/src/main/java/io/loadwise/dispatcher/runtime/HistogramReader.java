package io.loadwise.dispatcher.runtime;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.control.LatencyHistograms;
import io.loadwise.dispatcher.http.RouteCounter;
import io.loadwise.dispatcher.route.Route;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads {@link LatencyHistograms} off the running clusters and routes, without stopping any request. */
final class HistogramReader {

    private HistogramReader() {
    }

    static LatencyHistograms read(List<VirtualCluster> clusters, RoutedListeners routed) {
        List<LatencyHistograms.ClusterSeries> perCluster = new ArrayList<>(clusters.size());
        for (VirtualCluster cluster : clusters) {
            List<LatencyHistograms.NodeSeries> nodes = new ArrayList<>(cluster.nodes().size());
            for (NodeState node : cluster.nodes()) {
                nodes.add(new LatencyHistograms.NodeSeries(node.name(), node.counters().histograms()));
            }
            perCluster.add(new LatencyHistograms.ClusterSeries(cluster.name(), cluster.counters().histograms(), nodes));
        }
        List<LatencyHistograms.RouteSeries> routes = new ArrayList<>();
        for (RoutedListeners.Running r : routed.published()) {
            Map<String, RouteCounter> counters = routed.counters(r.config().name());
            for (Route route : r.routes().table().routes()) {
                RouteCounter counter = counters.get(route.name());
                if (counter != null) {
                    routes.add(new LatencyHistograms.RouteSeries(r.config().name(), route.name(),
                            counter.duration()));
                }
            }
        }
        List<LatencyHistograms.TerminationSeries> terminations = new ArrayList<>();
        for (VirtualCluster cluster : clusters) {
            terminations.add(LatencyHistograms.TerminationSeries.of(false, cluster.name(),
                    cluster.counters().terminations()));
        }
        for (RoutedListeners.Running r : routed.published()) {
            terminations.add(LatencyHistograms.TerminationSeries.of(true, r.config().name(),
                    r.listener().counters().terminations()));
        }
        return new LatencyHistograms(perCluster, routes, terminations);
    }
}
