package io.loadwise.dispatcher.cluster;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.NodeView;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Per-context routing of a cluster that takes registrations: one picker of the cluster's policy per context
 * path, over the nodes that serve it, and the {@link ContextMatcher} that maps a request target to one of
 * them. Immutable and built off the event loops, like every picker; a pick is a prefix scan, an array lookup
 * and the policy's own pick, and allocates nothing. A node that names no context serves {@code /}.
 */
public final class ContextPickers {

    private final ContextMatcher matcher;
    private final Picker[] pickers;
    /** Per context, the views its picker was built over (local index to node). */
    private final ContextView[][] views;
    /** Per context, cluster node index to its view there, {@code null} when the node does not serve it. */
    private final ContextView[][] byNode;

    private ContextPickers(ContextMatcher matcher, Picker[] pickers, ContextView[][] views, ContextView[][] byNode) {
        this.matcher = matcher;
        this.pickers = pickers;
        this.views = views;
        this.byNode = byNode;
    }

    /**
     * @param contexts per cluster node (same order as {@code nodes}), the contexts it serves; empty: {@code /}
     * @param previous the routing this one replaces, whose pickers hand their state on when a context keeps its
     *     nodes; may be {@code null}
     */
    public static ContextPickers build(String cluster, List<NodeState> nodes, List<List<String>> contexts,
            LoadBalancingPolicy policy, PolicyEnvironment environment, ContextPickers previous) {
        Set<String> all = new LinkedHashSet<>();
        for (List<String> served : contexts) {
            all.addAll(served.isEmpty() ? List.of("/") : served);
        }
        ContextMatcher matcher = new ContextMatcher(all);
        List<String> ordered = matcher.contexts();
        Picker[] pickers = new Picker[ordered.size()];
        ContextView[][] views = new ContextView[ordered.size()][];
        ContextView[][] byNode = new ContextView[ordered.size()][nodes.size()];
        for (int c = 0; c < ordered.size(); c++) {
            String context = ordered.get(c);
            List<ContextView> members = new ArrayList<>();
            for (int n = 0; n < nodes.size(); n++) {
                List<String> served = contexts.get(n).isEmpty() ? List.of("/") : contexts.get(n);
                if (served.contains(context)) {
                    ContextView view = new ContextView(members.size(), nodes.get(n));
                    members.add(view);
                    byNode[c][n] = view;
                }
            }
            views[c] = members.toArray(new ContextView[0]);
            Picker carried = previous == null ? null : previous.pickerWithSameNodes(context, views[c]);
            pickers[c] = policy.newPicker(new ClusterSnapshot(cluster + context, members), carried, environment);
        }
        return new ContextPickers(matcher, pickers, views, byNode);
    }

    private Picker pickerWithSameNodes(String context, ContextView[] members) {
        int c = matcher.contexts().indexOf(context);
        if (c < 0 || views[c].length != members.length) {
            return null;
        }
        for (int i = 0; i < members.length; i++) {
            if (views[c][i].node() != members[i].node()) {
                return null;
            }
        }
        return pickers[c];
    }

    /** The context {@code target} falls in (an index for {@link #pick}), or -1 when no node serves it. */
    public int context(String target) {
        return matcher.match(target);
    }

    /**
     * A usable node of context {@code context} other than {@code avoid} if there is one, {@code avoid} as a
     * last resort, {@code null} when none is usable (every node of the context drains or is down).
     */
    public NodeState pick(int context, NodeState avoid) {
        ContextView avoided = avoid == null ? null : byNode[context][avoid.index()];
        NodeView chosen = pickers[context].pick(avoided);
        return chosen == null ? null : views[context][chosen.index()].node();
    }

    /** Whether {@code node} serves context {@code context}. */
    public boolean serves(int context, NodeState node) {
        return byNode[context][node.index()] != null;
    }

    /** The contexts, longest first. */
    public List<String> contexts() {
        return matcher.contexts();
    }
}
