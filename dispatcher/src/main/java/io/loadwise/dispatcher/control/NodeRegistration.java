package io.loadwise.dispatcher.control;

import java.util.List;

/**
 * What a node says when it registers or heartbeats ({@code POST /api/clusters/{name}/registrations}).
 *
 * @param name the node's name in the cluster, unique there
 * @param address {@code ip:port} (an IP literal: no name is looked up), inside the cluster's allowed networks
 * @param route the session route of the server (Tomcat jvmRoute, Liberty cloneId), or {@code null}
 * @param contexts the context paths of the web applications it serves, such as {@code /app}
 */
public record NodeRegistration(String name, String address, String route, List<String> contexts) {

    public NodeRegistration {
        contexts = contexts == null ? null : List.copyOf(contexts);
    }
}
