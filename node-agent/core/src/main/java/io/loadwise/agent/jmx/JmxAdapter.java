package io.loadwise.agent.jmx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.ObjectName;

/**
 * A set of JMX mappings for one kind of server, as parsed by {@link JmxMappingParser}: built-in adapters
 * (Tomcat, GlassFish) are nothing but mapping files shipped in the JAR, so an operator's mapping for
 * another server is exactly as capable as they are.
 */
public final class JmxAdapter {

    private final String name;
    private final ObjectName detect;
    private final ObjectName initBean;
    private final String initOperation;
    private final String hint;
    private final Map<String, JmxMapping> mappings;
    private final Map<String, DerivedRatio> derived;

    JmxAdapter(String name, ObjectName detect, ObjectName initBean, String initOperation, String hint,
               Map<String, JmxMapping> mappings, Map<String, DerivedRatio> derived) {
        this.name = name;
        this.detect = detect;
        this.initBean = initBean;
        this.initOperation = initOperation;
        this.hint = hint;
        this.mappings = Map.copyOf(mappings);
        this.derived = Map.copyOf(derived);
    }

    public String name() {
        return name;
    }

    /** Pattern whose presence identifies the server, or {@code null} (never auto-detected). */
    public ObjectName detect() {
        return detect;
    }

    ObjectName initBean() {
        return initBean;
    }

    String initOperation() {
        return initOperation;
    }

    /** What to tell an operator when mapped metrics are missing (e.g. the asadmin command), or "". */
    public String hint() {
        return hint;
    }

    /** All metric names this adapter can produce. */
    public Set<String> metrics() {
        Set<String> all = new java.util.TreeSet<>(mappings.keySet());
        all.addAll(derived.keySet());
        return all;
    }

    List<JmxMapping> mappings() {
        return new ArrayList<>(mappings.values());
    }

    List<DerivedRatio> derived() {
        return new ArrayList<>(derived.values());
    }

    /**
     * This adapter with {@code overrides} applied: their mappings replace or add to ours, an empty
     * mapping in them removes ours, and their detection/init/hint settings win where present.
     */
    public JmxAdapter overriddenBy(JmxAdapter overrides, Set<String> removed) {
        Map<String, JmxMapping> m = new LinkedHashMap<>(mappings);
        Map<String, DerivedRatio> d = new LinkedHashMap<>(derived);
        for (String metric : removed) {
            m.remove(metric);
            d.remove(metric);
        }
        for (JmxMapping mapping : overrides.mappings.values()) {
            d.remove(mapping.metric());
            m.put(mapping.metric(), mapping);
        }
        for (DerivedRatio ratio : overrides.derived.values()) {
            m.remove(ratio.metric());
            d.put(ratio.metric(), ratio);
        }
        return new JmxAdapter(
                overrides.name.isEmpty() ? name : overrides.name,
                overrides.detect != null ? overrides.detect : detect,
                overrides.initBean != null ? overrides.initBean : initBean,
                overrides.initBean != null ? overrides.initOperation : initOperation,
                overrides.hint.isEmpty() ? hint : overrides.hint,
                m, d);
    }

    /** Keeps only the given metrics and the mappings they are derived from. */
    public JmxAdapter restrictedTo(Set<String> wanted) {
        Map<String, DerivedRatio> d = new LinkedHashMap<>();
        Set<String> needed = new java.util.HashSet<>(wanted);
        for (DerivedRatio ratio : derived.values()) {
            if (wanted.contains(ratio.metric())) {
                d.put(ratio.metric(), ratio);
                needed.add(ratio.numerator());
                needed.add(ratio.denominator());
            }
        }
        Map<String, JmxMapping> m = new LinkedHashMap<>();
        for (JmxMapping mapping : mappings.values()) {
            if (needed.contains(mapping.metric())) {
                m.put(mapping.metric(), mapping);
            }
        }
        return new JmxAdapter(name, detect, initBean, initOperation, hint, m, d);
    }

    @Override
    public String toString() {
        return "JmxAdapter{" + name + ", " + mappings.size() + " mappings, " + derived.size() + " derived}";
    }
}
