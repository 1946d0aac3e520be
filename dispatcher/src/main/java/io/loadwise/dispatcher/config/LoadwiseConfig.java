package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The whole configuration file. Immutable; a change builds a new one and validates it first.
 *
 * @param maxClientConnections client connections the whole dispatcher holds at most, over every
 *     listener; default: derived from the process's file-descriptor limit
 *     ({@link io.loadwise.dispatcher.net.ConnectionBudget})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadwiseConfig(AdminConfig admin, LoggingConfig logging, Integer maxClientConnections,
        List<ClusterConfig> clusters) {

    public LoadwiseConfig(AdminConfig admin, LoggingConfig logging, List<ClusterConfig> clusters) {
        this(admin, logging, null, clusters);
    }

    public List<ClusterConfig> clustersOrEmpty() {
        return clusters == null ? List.of() : clusters;
    }

    /** The same configuration with other clusters. */
    public LoadwiseConfig withClusters(List<ClusterConfig> newClusters) {
        return new LoadwiseConfig(admin, logging, maxClientConnections, newClusters);
    }
}
