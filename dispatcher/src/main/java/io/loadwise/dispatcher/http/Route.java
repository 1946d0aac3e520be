package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.VirtualCluster;

/** Where the {@link RouteStage} sends a request: the cluster whose nodes serve it. */
public record Route(VirtualCluster cluster) {
}
