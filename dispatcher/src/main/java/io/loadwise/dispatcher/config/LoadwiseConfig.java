package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** The whole configuration file. Immutable; a change builds a new one and validates it first. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadwiseConfig(AdminConfig admin, LoggingConfig logging, List<ClusterConfig> clusters) {

    public List<ClusterConfig> clustersOrEmpty() {
        return clusters == null ? List.of() : clusters;
    }
}
