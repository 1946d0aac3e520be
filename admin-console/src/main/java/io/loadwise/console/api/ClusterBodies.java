package io.loadwise.console.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidationException;

/**
 * Turns a request body into a {@link ClusterConfig} with the configuration file's own parser, so a body
 * is read exactly as strictly (unknown fields, wrong types, bad enum values) and errors name the field.
 */
final class ClusterBodies {

    private ClusterBodies() {
    }

    static ClusterConfig parse(ObjectNode body) throws ConfigValidationException {
        return ConfigLoader.parseCluster(body.toString());
    }
}
