package io.loadwise.console.replicas;

import io.loadwise.console.store.Series;
import io.loadwise.console.store.SeriesPoints;
import io.loadwise.console.store.Window;
import io.loadwise.dispatcher.control.ClusterControl;
import io.loadwise.dispatcher.control.ConfigUnavailableException;
import io.loadwise.dispatcher.control.ReplicaInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * One cluster series on every live replica: this replica's read from its own store, the others' fetched from
 * their admin API and aligned on this replica's grid, and (for an additive series) their sum over those that
 * answered. What {@code /api/clusters/{c}/replicas/series/{metric}.json} and {@code .../replicas/graphs/...}
 * show.
 *
 * @param grid this replica's points: the timestamps everything is aligned on
 * @param replicas this one first, then the others in registry order
 * @param registryProblem why the registry could not be read (then only this replica is listed), or {@code null}
 */
public record ReplicaSeriesView(SeriesPoints grid, List<Replica> replicas, String registryProblem) {

    public ReplicaSeriesView {
        replicas = List.copyOf(replicas);
    }

    /**
     * @param points aligned on the grid, or {@code null} when the replica did not answer
     * @param problem why it did not, or {@code null}
     */
    public record Replica(String id, boolean self, SeriesPoints points, String problem) {

        public boolean answered() {
            return points != null;
        }
    }

    /** Reads the registry and this replica's series, and asks every other replica for theirs. */
    public static ReplicaSeriesView collect(ClusterControl control, PeerSeries peers, String cluster, Series series,
            Window window, SeriesPoints own) {
        String selfId = control.replicaId();
        List<ReplicaInfo> others = new ArrayList<>();
        String registryProblem = null;
        try {
            for (ReplicaInfo info : control.replicas()) {
                if (!info.id().equals(selfId)) {
                    others.add(info);
                }
            }
        } catch (ConfigUnavailableException e) {
            registryProblem = e.getMessage();
        }
        List<Replica> replicas = new ArrayList<>();
        replicas.add(new Replica(selfId == null ? "this dispatcher" : selfId, true, own, null));
        List<PeerSeries.Answer> answers = others.isEmpty() ? List.of() : peers.fetch(others, cluster, series, window);
        for (int i = 0; i < others.size(); i++) {
            PeerSeries.Answer answer = answers.get(i);
            replicas.add(new Replica(others.get(i).id(), false,
                    answer.points() == null ? null : ReplicaSeries.align(own, answer.points()), answer.problem()));
        }
        return new ReplicaSeriesView(own, replicas, registryProblem);
    }

    /** The points of the replicas that answered. */
    public List<SeriesPoints> answered() {
        List<SeriesPoints> out = new ArrayList<>();
        for (Replica r : replicas) {
            if (r.answered()) {
                out.add(r.points());
            }
        }
        return out;
    }

    /** The sum over the replicas that answered (for an additive series). */
    public SeriesPoints sum() {
        return ReplicaSeries.sum(grid, answered());
    }
}
