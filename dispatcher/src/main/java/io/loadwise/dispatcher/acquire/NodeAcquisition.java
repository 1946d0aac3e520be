package io.loadwise.dispatcher.acquire;

import io.loadwise.dispatcher.acquire.Outcome.Refusal;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.RequestQueue;
import io.loadwise.dispatcher.cluster.RetryBudget;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.config.RetryOn;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Ticker;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gets one request (L7) or tunnel (L4) a connection to a node: admits it to a node's
 * {@code maxConnections}, queues it in the cluster's {@link RequestQueue} when every node is full, picks,
 * and on a failed connect marks the node down, reports it to outlier detection, asks for a new picker and
 * tries another node, up to {@code connectAttempts}. It ends in exactly one {@link Outcome}, given to the
 * one callback it was built with; the pool and the queue call back into this object, never into the
 * requester.
 *
 * <p>One instance per client connection, reused for each of its requests, used only on that connection's
 * event loop (its ticker times the waits). The slot and the retry it holds are kept until {@link #finish}:
 * a request occupies its node until its response ended.
 */
public final class NodeAcquisition implements NodeConnector.Waiter, RequestQueue.Waiter {

    /** Where the acquisition is. */
    public enum Phase {
        IDLE,
        /** Every node full (or none reachable): waiting in the cluster's queue. */
        QUEUED,
        /** A node is chosen; waiting for a connection to it. */
        CONNECTING,
        /** The requester has its connection; the node's slot is held until {@link #finish}. */
        CONNECTED
    }

    private static final Logger log = LoggerFactory.getLogger(NodeAcquisition.class);

    private final VirtualCluster cluster;
    private final RequestQueue queue;
    private final EventLoop loop;
    private final Ticker ticker;
    private final NodeChooser chooser;
    private final NodeConnector connector;
    private final Consumer<Outcome> requester;
    /** Told when a request starts waiting in the queue, and by when it must leave it, so a timer fires then. */
    private final LongConsumer queuedUntil;
    private final RetryOn retryOn;
    private final int connectAttempts;
    private final int unhealthyRetryMs;
    private final Runnable onWake = this::onSlotFree;

    private Phase phase = Phase.IDLE;
    /** The request target ({@code null} for a tunnel): per-context routing picks by it. */
    private String target;
    /** The node being connected to, or connected. */
    private NodeState node;
    /** The node whose {@code maxConnections} slot this request holds, or {@code null}. */
    private NodeState admitted;
    /** A connector call is outstanding: a connection or a failure is still to come for {@link #node}. */
    private boolean awaiting;
    /** The request went to a second node after its first failed it: never a third ({@link #retryTarget}). */
    private boolean retried;
    /** This request holds one retry of the cluster's budget. */
    private boolean holdsRetry;
    private int failedConnects;
    /** When the current wait began: in the queue, or for a connection. */
    private long sinceNanos;
    private long connectStartNanos;
    /** Time this request spent in the queue so far (the access log's {@code Tw}). */
    private long queuedNanos;
    /** Time the last connection took to come; -1: none came (the access log's {@code Tc}). */
    private long connectNanos = -1;
    /** The connector is in {@code open}: a connection that comes now was there already (pooled, bound). */
    private boolean opening;
    /** The last connection came from {@code open} itself: made earlier, none was made for this request. */
    private boolean pooled;

    /**
     * @param loop the requester's event loop: callbacks run there, and its ticker times the waits
     * @param requester told the outcome of each {@link #start}, exactly once
     * @param queuedUntil told the deadline of a wait in the queue (a no-op where nothing queues)
     */
    public NodeAcquisition(VirtualCluster cluster, EventLoop loop, NodeChooser chooser, NodeConnector connector,
            Consumer<Outcome> requester, LongConsumer queuedUntil) {
        this.cluster = cluster;
        this.queue = cluster.queue();
        this.loop = loop;
        this.ticker = loop.ticker();
        this.chooser = chooser;
        this.connector = connector;
        this.requester = requester;
        this.queuedUntil = queuedUntil;
        this.retryOn = cluster.config().retryOnOrDefault();
        this.connectAttempts = cluster.config().connectAttemptsOrDefault();
        this.unhealthyRetryMs = cluster.config().unhealthyRetryMsOrDefault();
    }

    public Phase phase() {
        return phase;
    }

    /** Waiting in the queue or for a connection: the outcome is still to come. */
    public boolean waiting() {
        return phase == Phase.QUEUED || phase == Phase.CONNECTING;
    }

    /** When the current wait (in the queue, or for a connection) began. */
    public long sinceNanos() {
        return sinceNanos;
    }

    /** The node being connected to, or connected; {@code null} before the first choice. */
    public NodeState node() {
        return node;
    }

    /** Time the request spent in the cluster's queue (0 when it never waited there). */
    public long queuedNanos() {
        return queuedNanos;
    }

    /** Time the request's node connection took to come (about 0 for a pooled one); -1 when none came. */
    public long connectNanos() {
        return connectNanos;
    }

    /** Whether the last connection was there already (a pooled or bound one): nothing was connected for it. */
    public boolean pooled() {
        return pooled;
    }

    /** Times the request was sent again, to another node: 0 or 1. */
    public int retries() {
        return retried ? 1 : 0;
    }

    /** The cluster's {@code retryOn}, read once. */
    public RetryOn retryOn() {
        return retryOn;
    }

    /** Starts acquiring a node for a request to {@code target} ({@code null}: a tunnel, any node). */
    public void start(String requestTarget) {
        target = requestTarget;
        node = null;
        failedConnects = 0;
        retried = false;
        queuedNanos = 0;
        connectNanos = -1;
        sinceNanos = ticker.nanoTime();
        // Others wait already: behind them. Not across contexts: the queue is the cluster's, and a request
        // for one context must not wait behind another's whose nodes are full while its own have room.
        boolean behindOthers = queue.busy() && !cluster.routesByContext();
        NodeState chosen = behindOthers ? null : admit(chooser.choose(target));
        if (chosen == null && target != null && !cluster.servesTarget(target)) {
            refuse(Refusal.NO_ROUTE, "no node of cluster " + cluster.name() + " serves the path");
        } else if (chosen == null) {
            waitForNode();
        } else {
            connect(chosen);
        }
    }

    /**
     * After the node failed a request it was sent ({@code failed}): the node to send it to once more, admitted
     * and holding one retry of the cluster's budget, or {@code null} when it was retried already, the budget is
     * spent or no other node takes it. The caller then ends its work on {@code failed} and calls {@link #retry}.
     */
    public NodeState retryTarget(NodeState failed) {
        if (retried) {
            return null;
        }
        RetryBudget budget = cluster.retryBudget();
        if (!budget.tryAcquire(cluster.counters().activeRequests())) {
            log.debug("cluster {}: retry budget spent; {} not retried", cluster.name(), target);
            return null;
        }
        NodeState next = chooser.chooseAgain(cluster, failed, target);
        if (next == null || next == failed || !next.tryAdmit()) {
            budget.release();
            return null;
        }
        holdsRetry = true;
        retried = true;
        releaseSlot();
        admitted = next;
        cluster.counters().retried();
        return next;
    }

    /**
     * No connection to {@link #node()} came within the deadline (its connections all busy, or a connect that hangs):
     * the request has not left the proxy, so whatever its method it may wait for another node instead, once and
     * within the retry budget ({@link #retryTarget}). Returns whether it does; {@code attempt} is told first.
     */
    public boolean connectElsewhere(String reason, Runnable attempt) {
        NodeState waited = node;
        NodeState next = awaiting && phase == Phase.CONNECTING ? retryTarget(waited) : null;
        if (next == null) {
            return false;
        }
        awaiting = false;
        connector.cancel(waited, this);
        log.info("cluster {}: {}: {}; waits for node {} instead", cluster.name(), target, reason, next.name());
        attempt.run();
        retry(next);
        return true;
    }

    /** Connects to {@code next}, which {@link #retryTarget} returned; the outcome goes to the requester. */
    public void retry(NodeState next) {
        sinceNanos = ticker.nanoTime();
        connect(next);
    }

    /**
     * The request is over (or its client gone): stops waiting, gives the node's slot back (and the head of the
     * queue its turn) and the retry it held. Idempotent.
     */
    public void finish() {
        if (awaiting) {
            awaiting = false;
            connector.cancel(node, this);
        }
        if (phase == Phase.QUEUED) {
            long waited = ticker.nanoTime() - sinceNanos;
            queuedNanos += waited;
            queue.left(this, waited);
        }
        phase = Phase.IDLE;
        target = null; // the request's: an idle connection keeps nothing of it
        releaseSlot();
        if (holdsRetry) {
            holdsRetry = false;
            cluster.retryBudget().release();
        }
    }

    // ---- admission and the queue ------------------------------------------------------------------

    /** Takes one of {@code chosen}'s {@code maxConnections} slots; {@code null} when it is full (or null). */
    private NodeState admit(NodeState chosen) {
        if (chosen == null || !chosen.tryAdmit()) {
            return null;
        }
        admitted = chosen;
        return chosen;
    }

    private void releaseSlot() {
        NodeState holder = admitted;
        if (holder != null) {
            admitted = null;
            if (holder.leave()) {
                queue.slotFreed();
            }
        }
    }

    /** No node takes the request now: it waits in the cluster's queue, or is refused at once. */
    private void waitForNode() {
        if (queue.offer(this)) {
            phase = Phase.QUEUED;
            sinceNanos = ticker.nanoTime();
            queuedUntil.accept(sinceNanos + queue.timeoutNanos());
            if (!queue.wakePending() && anyNodeFree()) {
                queue.slotFreed(); // a slot came free between the pick and the offer: nobody would wake us
            }
        } else if (queue.enabled()) {
            refuse(Refusal.QUEUE_FULL, "the queue of cluster " + cluster.name() + " is full ("
                    + cluster.config().maxQueueOrDefault() + " requests)");
        } else if (anyNodeFull()) {
            refuse(Refusal.NODES_FULL, "every usable node of cluster " + cluster.name() + " is at its maxConnections");
        } else {
            refuse(Refusal.NO_NODE, "no usable node in cluster " + cluster.name());
        }
    }

    private boolean anyNodeFree() {
        for (NodeState n : cluster.nodes()) {
            if (n.selectable()) {
                return true;
            }
        }
        return false;
    }

    private boolean anyNodeFull() {
        for (NodeState n : cluster.nodes()) {
            if (n.usable() && !n.admitted()) {
                return true;
            }
        }
        return false;
    }

    /** A slot came free: called on any thread, picks again on the requester's loop. */
    @Override
    public void wake() {
        loop.execute(onWake);
    }

    private void onSlotFree() {
        queue.awake();
        if (phase != Phase.QUEUED) {
            queue.slotFreed(); // this request ended meanwhile: the slot is the next one's
            return;
        }
        NodeState chosen = admit(chooser.choose(target));
        if (chosen == null) {
            queue.requeue(this); // another took it first: first in line again
            return;
        }
        long now = ticker.nanoTime();
        queuedNanos += now - sinceNanos;
        queue.left(this, now - sinceNanos);
        if (queue.busy() && !queue.wakePending() && anyNodeFree()) {
            queue.slotFreed(); // more than one slot came free: the next in line need not wait for another
        }
        sinceNanos = now;
        connect(chosen);
    }

    // ---- connecting -------------------------------------------------------------------------------

    private void connect(NodeState chosen) {
        phase = Phase.CONNECTING;
        node = chosen;
        awaiting = true;
        connectStartNanos = ticker.nanoTime();
        opening = true;
        try {
            connector.open(chosen, this);
        } finally {
            opening = false;
        }
    }

    @Override
    public void onBackendReady(Channel channel) {
        if (!awaiting || phase != Phase.CONNECTING || connector.nodeOf(channel) != node) {
            connector.giveBack(channel); // a late connection for a request that ended
            return;
        }
        awaiting = false;
        phase = Phase.CONNECTED;
        connectNanos = ticker.nanoTime() - connectStartNanos;
        pooled = opening;
        requester.accept(new Outcome.Connected(node, channel, connectNanos));
    }

    @Override
    public void onBackendFailed(Throwable cause) {
        if (!awaiting) {
            return;
        }
        awaiting = false;
        NodeState failed = node;
        failed.markConnectFailure(unhealthyRetryMs);
        cluster.outcomes().onGatewayFailure(failed); // outlier detection (issue 15)
        cluster.requestRefresh(); // never rebuilt on an event loop
        log.warn("cluster {}: node {} unreachable ({}); out of selection for {} ms", cluster.name(), failed,
                cause.toString(), unhealthyRetryMs);
        releaseSlot();
        if (!retryOn.connectFailure() || ++failedConnects >= connectAttempts) {
            refuse(Refusal.UNREACHABLE, "node " + failed.name() + " unreachable");
            return;
        }
        NodeState next = chooser.chooseAgain(cluster, failed, target);
        if (next == failed && !failed.usable()) {
            next = null;
        }
        NodeState admittedNext = admit(next);
        if (admittedNext != null) {
            connect(admittedNext);
        } else if (queue.enabled()) {
            waitForNode(); // refused or full everywhere: wait for a node like a request that found none
        } else {
            refuse(Refusal.UNREACHABLE, "no node of cluster " + cluster.name() + " reachable");
        }
    }

    private void refuse(Refusal refusal, String reason) {
        phase = Phase.IDLE;
        requester.accept(new Outcome.Refused(refusal, reason));
    }
}
