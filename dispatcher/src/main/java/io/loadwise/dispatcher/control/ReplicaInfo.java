package io.loadwise.dispatcher.control;

import java.util.List;

/**
 * One dispatcher replica as it registered itself in the shared store ({@code GET /api/replicas}).
 *
 * @param id {@code --replica-id}, or host name and admin port
 * @param adminUrl where its console and REST API answer
 * @param listen the addresses its clusters listen on
 * @param version the Loadwise version it runs
 * @param startedAt when it started, ISO-8601 UTC
 */
public record ReplicaInfo(String id, String adminUrl, List<String> listen, String version, String startedAt) {

    public ReplicaInfo {
        listen = listen == null ? List.of() : List.copyOf(listen);
    }
}
