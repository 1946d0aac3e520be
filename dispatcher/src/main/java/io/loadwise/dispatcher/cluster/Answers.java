package io.loadwise.dispatcher.cluster;

import java.util.function.Consumer;

/**
 * What a {@link VirtualCluster} does with each final answer of a node ({@link VirtualCluster#answered}): judges
 * it ({@link FailedAnswers}), counts a failure on the node, reports it to outlier detection
 * ({@link OutcomeSink}), and tells the node monitor of a 404 on a path another node serves (its application may
 * be gone). Called on event loops; it only counts and hands over.
 */
final class Answers {

    private final FailedAnswers failedAnswers;
    private volatile OutcomeSink outcomes = OutcomeSink.NONE;
    /** Told of a node's 404 on a path another node serves (the node monitor asks its agent); or {@code null}. */
    private volatile Consumer<NodeState> suspicions;

    Answers(int nodes) {
        this.failedAnswers = new FailedAnswers(nodes);
    }

    void answered(NodeState node, String target, int status, long nowNanos) {
        boolean failed = failedAnswers.failed(node.index(), target, status, nowNanos);
        if (failed) {
            node.requestFailed();
        }
        if (failed && status < 500) {
            outcomes.onFailedAnswer(node);
            Consumer<NodeState> s = suspicions;
            if (s != null) {
                s.accept(node); // its application may be gone: the monitor asks its agent (hands over only)
            }
        } else {
            outcomes.onResponse(node, status);
        }
    }

    void setSuspicionSink(Consumer<NodeState> sink) {
        this.suspicions = sink;
    }

    OutcomeSink outcomes() {
        return outcomes;
    }

    void setOutcomes(OutcomeSink outcomes) {
        this.outcomes = outcomes == null ? OutcomeSink.NONE : outcomes;
    }
}
