package io.loadwise.dispatcher.cluster;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.policy.LoadBalancingPolicy;
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
    /** Per context (in {@link ContextMatcher#contexts()} order), the picker over the nodes that serve it. */
    private final SubsetPicker[] pickers;

    private ContextPickers(ContextMatcher matcher, SubsetPicker[] pickers) {
        this.matcher = matcher;
        this.pickers = pickers;
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
        SubsetPicker[] pickers = new SubsetPicker[ordered.size()];
        for (int c = 0; c < ordered.size(); c++) {
            String context = ordered.get(c);
            List<NodeState> members = new ArrayList<>();
            for (int n = 0; n < nodes.size(); n++) {
                List<String> served = contexts.get(n).isEmpty() ? List.of("/") : contexts.get(n);
                if (served.contains(context)) {
                    members.add(nodes.get(n));
                }
            }
            SubsetPicker carried = previous == null ? null : previous.pickerOf(context);
            pickers[c] = SubsetPicker.build(cluster + context, nodes.size(), members, policy, environment, carried);
        }
        return new ContextPickers(matcher, pickers);
    }

    /** The per-context pickers of a cluster that takes registrations (it routes by context), else null. */
    static ContextPickers of(ClusterConfig config, List<NodeState> nodes, LoadBalancingPolicy policy,
            PolicyEnvironment environment, ContextPickers previous) {
        if (!config.registrationEnabled()) {
            return null;
        }
        List<List<String>> contexts = new ArrayList<>(nodes.size());
        for (NodeConfig node : config.nodesOrEmpty()) {
            contexts.add(node.contextsOrEmpty());
        }
        return build(config.name(), nodes, contexts, policy, environment, previous);
    }

    private SubsetPicker pickerOf(String context) {
        int c = matcher.contexts().indexOf(context);
        return c < 0 ? null : pickers[c];
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
        return pickers[context].pick(avoid);
    }

    /** Whether {@code node} serves context {@code context}. */
    public boolean serves(int context, NodeState node) {
        return pickers[context].contains(node);
    }

    /** The contexts, longest first. */
    public List<String> contexts() {
        return matcher.contexts();
    }
}
