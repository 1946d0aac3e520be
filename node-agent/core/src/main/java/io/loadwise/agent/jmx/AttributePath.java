package io.loadwise.agent.jmx;

import java.util.List;
import javax.management.openmbean.CompositeData;

/**
 * One attribute to read, with alternatives: {@code numActive,active} reads {@code numActive}, or
 * {@code active} on MBeans that lack it. {@code name.key} reads one item of a CompositeData attribute;
 * a CompositeData without a key yields its {@code count} or {@code current} item (the JSR-77 statistics
 * GlassFish exposes).
 */
final class AttributePath {

    private final List<String> attributes;
    private final List<String> keys;

    private AttributePath(List<String> attributes, List<String> keys) {
        this.attributes = attributes;
        this.keys = keys;
    }

    static AttributePath parse(String spec, String where) {
        String[] alternatives = spec.split(",");
        String[] attributes = new String[alternatives.length];
        String[] keys = new String[alternatives.length];
        for (int i = 0; i < alternatives.length; i++) {
            String alt = alternatives[i].strip();
            if (alt.isEmpty()) {
                throw new InvalidMappingException(where + ": empty attribute name in '" + spec + "'");
            }
            int dot = alt.indexOf('.');
            attributes[i] = dot < 0 ? alt : alt.substring(0, dot);
            keys[i] = dot < 0 ? "" : alt.substring(dot + 1);
        }
        return new AttributePath(List.of(attributes), List.of(keys));
    }

    List<String> attributeNames() {
        return attributes;
    }

    /**
     * The value from the attributes an MBean returned ({@code found} is keyed by attribute name), or NaN
     * when none of the alternatives is there or numeric. Negative numbers mean "unlimited" or "unknown"
     * in most server MBeans (Tomcat's maxConnections=-1), so they are NaN too.
     */
    double value(java.util.Map<String, Object> found) {
        for (int i = 0; i < attributes.size(); i++) {
            Object raw = found.get(attributes.get(i));
            if (raw == null) {
                continue;
            }
            double v = numeric(raw, keys.get(i));
            if (!Double.isNaN(v)) {
                return v < 0 ? Double.NaN : v;
            }
        }
        return Double.NaN;
    }

    private static double numeric(Object raw, String key) {
        if (raw instanceof CompositeData) {
            CompositeData data = (CompositeData) raw;
            if (!key.isEmpty()) {
                return data.containsKey(key) ? numeric(data.get(key), "") : Double.NaN;
            }
            for (String item : new String[] {"count", "current"}) {
                if (data.containsKey(item)) {
                    return numeric(data.get(item), "");
                }
            }
            return Double.NaN;
        }
        if (raw instanceof Number) {
            return ((Number) raw).doubleValue();
        }
        if (raw instanceof String) { // GlassFish config MBeans expose sizes as strings
            try {
                return Double.parseDouble(((String) raw).strip());
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
        return Double.NaN;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < attributes.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(attributes.get(i)).append(keys.get(i).isEmpty() ? "" : "." + keys.get(i));
        }
        return sb.toString();
    }
}
