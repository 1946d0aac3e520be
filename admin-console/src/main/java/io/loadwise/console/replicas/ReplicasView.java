package io.loadwise.console.replicas;

import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ConfigUnavailableException;
import io.loadwise.dispatcher.control.ReplicaInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Every live replica with its own figures and the sum over those that answered: what the console's Replicas
 * page shows and {@code GET /api/replicas/figures} answers. This replica's figures are read in process;
 * the others' are fetched from their admin API. With the file store the list is this replica alone.
 *
 * @param replicas this one first, then the others in registry order
 * @param sum over the replicas that answered
 * @param registryProblem why the registry could not be read (etcd unreachable), or {@code null}
 */
public record ReplicasView(List<Replica> replicas, LiveFigures sum, String registryProblem) {

    public ReplicasView {
        replicas = List.copyOf(replicas);
    }

    /**
     * One replica as the console sees it.
     *
     * @param info its registry entry; for a dispatcher with the file store one made up with no admin URL
     * @param self whether it is the replica answering
     * @param figures its live figures, or {@code null} when it could not be asked
     * @param problem why it has no figures (it is registered but unreachable), or {@code null}
     */
    public record Replica(ReplicaInfo info, boolean self, LiveFigures figures, String problem) {

        /** Registered and answering. */
        public boolean alive() {
            return figures != null;
        }
    }

    /** Reads the registry, asks every other replica for its figures and sums them. */
    public static ReplicasView collect(ClusterControl control, PeerFigures peers) {
        String selfId = control.replicaId();
        List<ReplicaInfo> registered;
        String registryProblem = null;
        try {
            registered = control.replicas();
        } catch (ConfigUnavailableException e) {
            registered = List.of();
            registryProblem = e.getMessage();
        }
        ReplicaInfo selfInfo = null;
        List<ReplicaInfo> others = new ArrayList<>();
        for (ReplicaInfo info : registered) {
            if (info.id().equals(selfId)) {
                selfInfo = info;
            } else {
                others.add(info);
            }
        }
        if (selfInfo == null) {
            // The file store, or etcd unreachable, or this replica's lease is being renewed right now.
            selfInfo = new ReplicaInfo(selfId == null ? "this dispatcher" : selfId, null, List.of(), null, null);
        }
        List<Replica> replicas = new ArrayList<>();
        List<LiveFigures> answered = new ArrayList<>();
        LiveFigures own = LiveFigures.of(control);
        replicas.add(new Replica(selfInfo, true, own, null));
        answered.add(own);
        List<PeerFigures.Answer> answers = others.isEmpty() ? List.of() : peers.fetch(others);
        for (int i = 0; i < others.size(); i++) {
            PeerFigures.Answer answer = answers.get(i);
            replicas.add(new Replica(others.get(i), false, answer.figures(), answer.problem()));
            if (answer.figures() != null) {
                answered.add(answer.figures());
            }
        }
        return new ReplicasView(replicas, LiveFigures.sum(answered), registryProblem);
    }
}
