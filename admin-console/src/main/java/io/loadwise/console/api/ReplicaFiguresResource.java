package io.loadwise.console.api;

import io.loadwise.console.replicas.LiveFigures;
import io.loadwise.console.replicas.PeerFigures;
import io.loadwise.console.replicas.ReplicasView;
import io.loadwise.dispatcher.control.ClusterControl;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/figures}: this replica's live figures (what the other replicas' consoles fetch).
 * {@code GET /api/replicas/figures}: every live replica with its own figures, reachable or not, and the sum over
 * those that answered; always 200, with {@code registryProblem} when etcd cannot be reached (then only this
 * replica is listed).
 */
final class ReplicaFiguresResource {

    private final ClusterControl control;
    private final PeerFigures peers;

    ReplicaFiguresResource(ClusterControl control, PeerFigures peers) {
        this.control = control;
        this.peers = peers;
    }

    Reply own(ApiCall call) {
        return Reply.ok(LiveFigures.of(control));
    }

    Reply all(ApiCall call) {
        ReplicasView view = ReplicasView.collect(control, peers);
        List<Map<String, Object>> replicas = new ArrayList<>();
        for (ReplicasView.Replica replica : view.replicas()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("id", replica.info().id());
            r.put("adminUrl", replica.info().adminUrl());
            r.put("listen", replica.info().listen());
            r.put("version", replica.info().version());
            r.put("startedAt", replica.info().startedAt());
            r.put("self", replica.self());
            r.put("alive", replica.alive());
            r.put("problem", replica.problem());
            r.put("figures", replica.figures() == null ? null : replica.figures().clusters());
            replicas.add(r);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("replicas", replicas);
        body.put("sum", view.sum().clusters());
        body.put("registryProblem", view.registryProblem());
        return Reply.ok(body);
    }
}
