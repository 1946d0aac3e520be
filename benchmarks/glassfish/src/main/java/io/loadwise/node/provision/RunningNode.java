package io.loadwise.node.provision;

import java.net.URI;
import java.util.Objects;

/**
 * A started node: where its HTTP listener and its deployed application answer.
 *
 * @param name        the node name from its {@link NodeSpec}
 * @param host        address of the HTTP listener
 * @param httpPort    port of the HTTP listener
 * @param contextPath where the application is deployed, e.g. "/trade"
 */
public record RunningNode(String name, String host, int httpPort, String contextPath) {

    public RunningNode {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(contextPath, "contextPath");
    }

    /** Base URI of the deployed application, with a trailing slash. */
    public URI applicationUri() {
        return URI.create("http://" + host + ":" + httpPort + contextPath + "/");
    }
}
