package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.acquire.NodeChooser;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.cluster.VirtualCluster;
import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * L7's first choice of node for a request: a live affinity route first ({@code affinity: cookie}), then
 * another node of its replication domain when that node is gone or drained, then the node the client is bound to
 * ({@code balance: per-connection}), then the policy. Remembers whether
 * the response must carry a new affinity cookie. One per client connection, on its event loop.
 */
final class NodeChoice implements NodeChooser {

    private final VirtualCluster cluster;
    /** {@code null} without cookie affinity. */
    private final SessionAffinity affinity;
    private final AffinityCounters counters;
    /** {@code null}: balanced per request. */
    private final NodeBinding binding;
    /** The affinity route of the request ({@link SessionAffinity#NONE} without affinity), kept for a queued pick. */
    private int pinned = SessionAffinity.NONE;
    /** The response gets the affinity cookie (no live route pinned the request). */
    private boolean insertCookie;

    NodeChoice(VirtualCluster cluster, SessionAffinity affinity, AffinityCounters counters, NodeBinding binding) {
        this.cluster = cluster;
        this.affinity = affinity;
        this.counters = counters;
        this.binding = binding;
    }

    /** Reads the request's affinity route, before its headers are rewritten for the node. */
    void prepare(ProxiedRequest request) {
        insertCookie = false;
        pinned = affinity != null ? affinity.pinnedIndex(request) : SessionAffinity.NONE;
    }

    @Override
    public NodeState choose(String target) {
        if (affinity != null) {
            if (pinned >= 0) {
                NodeState pinnedNode = cluster.nodes().get(pinned);
                // A pin holds on a usable node, and on one in service in a group on standby (PriorityGroups); a
                // full node is passed over.
                if (pinnedNode.keepsPinnedWork() && pinnedNode.admitted() && cluster.serves(pinnedNode, target)) {
                    counters.recordHit();
                    return pinnedNode;
                }
                counters.recordMiss();
                NodeState partner = cluster.pickInDomain(pinnedNode, target);
                if (partner != null) {
                    // Gone or drained: another node of its replication domain holds copies of its sessions.
                    counters.recordDomainPartner();
                    insertCookie = true;
                    return partner;
                }
            } else if (pinned == SessionAffinity.UNKNOWN) {
                counters.recordMiss();
            } else {
                counters.recordUnpinned();
            }
            insertCookie = true;
        }
        NodeState bound = binding != null ? binding.usableNode() : null;
        return bound != null ? bound : cluster.pick(null, target);
    }

    /** After {@code failed} failed the request: its domain partner first when the request was pinned to it. */
    @Override
    public NodeState chooseAgain(VirtualCluster cluster, NodeState failed, String target) {
        if (affinity != null && pinned == failed.index()) {
            NodeState partner = cluster.pickInDomain(failed, target);
            if (partner != null) {
                counters.recordDomainPartner();
                insertCookie = true;
                return partner;
            }
        }
        return cluster.pick(failed, target);
    }

    /** Adds the affinity cookie for {@code node} to a response that needs one and sets no route of its own. */
    void addCookie(HttpHeaders responseHeaders, NodeState node) {
        if (insertCookie && !affinity.setsOwnRoute(responseHeaders, node)) {
            responseHeaders.add(HttpHeaderNames.SET_COOKIE, affinity.setCookieFor(node));
        }
    }
}
