package io.loadwise.agent.jmx;

import java.util.List;
import java.util.Set;
import javax.management.MBeanServer;

/**
 * Decides which adapter describes the running server. With {@code auto}, the built-in adapters are
 * tried in order by their detection pattern; detection is retried on every call until one matches,
 * because a server may register its MBeans after the agent starts. The operator's own mappings are
 * applied on top of the detected adapter, or used alone when none is detected.
 * Used by the sampler thread only.
 */
public final class JmxAdapterChoice {

    private final List<JmxAdapter> candidates;
    private final boolean requireDetection;
    private final JmxAdapter overrides;
    private final Set<String> removed;
    private JmxAdapter resolved;
    private boolean detected;

    /**
     * @param candidates adapters to detect among (empty: use only the operator's mappings)
     * @param requireDetection {@code false} to use the first candidate without detecting it (an adapter
     *     named in the configuration)
     * @param overrides the operator's mappings (may be empty)
     * @param removed metrics the operator unmapped
     */
    public JmxAdapterChoice(List<JmxAdapter> candidates, boolean requireDetection, JmxAdapter overrides,
                            Set<String> removed) {
        this.candidates = List.copyOf(candidates);
        this.requireDetection = requireDetection;
        this.overrides = overrides;
        this.removed = Set.copyOf(removed);
    }

    /** The adapter to sample with, or {@code null} while there is nothing to sample. */
    public JmxAdapter resolve(MBeanServer server) {
        if (detected) {
            return resolved;
        }
        for (JmxAdapter candidate : candidates) {
            if (!requireDetection || (candidate.detect() != null && !server.queryNames(candidate.detect(), null).isEmpty())) {
                detected = true;
                resolved = candidate.overriddenBy(overrides, removed);
                return resolved;
            }
        }
        if (resolved == null && !overrides.metrics().isEmpty()) {
            resolved = overrides.name().isEmpty() ? renamed(overrides) : overrides;
            detected = candidates.isEmpty(); // keep trying to detect a built-in adapter to extend
        }
        return resolved;
    }

    private static JmxAdapter renamed(JmxAdapter custom) {
        java.util.Properties p = new java.util.Properties();
        p.setProperty(JmxMappingParser.ADAPTER_PREFIX + "name", "custom");
        return custom.overriddenBy(JmxMappingParser.parse(p, "custom"), Set.of());
    }
}
