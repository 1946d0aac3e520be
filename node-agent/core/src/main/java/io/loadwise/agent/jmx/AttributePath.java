package io.loadwise.agent.jmx;

import java.util.ArrayList;
import java.util.List;
import javax.management.openmbean.CompositeData;

/**
 * One attribute to read, with alternatives: {@code numActive,active} reads {@code numActive}, or
 * {@code active} on MBeans that lack it. An alternative may add attributes of the MBean:
 * {@code InUseCount+AvailableCount} (a pool's maximum as in-use plus available connections); it counts
 * only when every term is there. {@code name.key} reads one item of a CompositeData attribute;
 * a CompositeData without a key yields its {@code count} or {@code current} item (the JSR-77 statistics
 * GlassFish exposes).
 */
final class AttributePath {

    /** Per alternative, the attributes it adds up, and the CompositeData key of each ("" for none). */
    private final List<List<String>> attributes;
    private final List<List<String>> keys;

    private AttributePath(List<List<String>> attributes, List<List<String>> keys) {
        this.attributes = attributes;
        this.keys = keys;
    }

    static AttributePath parse(String spec, String where) {
        List<List<String>> attributes = new ArrayList<>();
        List<List<String>> keys = new ArrayList<>();
        for (String alternative : spec.split(",", -1)) {
            List<String> names = new ArrayList<>();
            List<String> items = new ArrayList<>();
            for (String term : alternative.split("\\+", -1)) {
                String t = term.strip();
                if (t.isEmpty()) {
                    throw new InvalidMappingException(where + ": empty attribute name in '" + spec + "'");
                }
                int dot = t.indexOf('.');
                names.add(dot < 0 ? t : t.substring(0, dot));
                items.add(dot < 0 ? "" : t.substring(dot + 1));
            }
            attributes.add(List.copyOf(names));
            keys.add(List.copyOf(items));
        }
        return new AttributePath(List.copyOf(attributes), List.copyOf(keys));
    }

    List<String> attributeNames() {
        List<String> all = new ArrayList<>();
        attributes.forEach(all::addAll);
        return all;
    }

    /**
     * The value from the attributes an MBean returned ({@code found} is keyed by attribute name), or NaN
     * when none of the alternatives is there or numeric. Negative numbers mean "unlimited" or "unknown"
     * in most server MBeans (Tomcat's maxConnections=-1), so they are NaN too.
     */
    double value(java.util.Map<String, Object> found) {
        for (int i = 0; i < attributes.size(); i++) {
            double sum = 0;
            for (int j = 0; j < attributes.get(i).size() && !Double.isNaN(sum); j++) {
                Object raw = found.get(attributes.get(i).get(j));
                double v = raw == null ? Double.NaN : numeric(raw, keys.get(i).get(j));
                sum = v < 0 ? Double.NaN : sum + v;
            }
            if (!Double.isNaN(sum)) {
                return sum;
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
            sb.append(i == 0 ? "" : ",");
            for (int j = 0; j < attributes.get(i).size(); j++) {
                String key = keys.get(i).get(j);
                sb.append(j == 0 ? "" : "+").append(attributes.get(i).get(j)).append(key.isEmpty() ? "" : "." + key);
            }
        }
        return sb.toString();
    }
}
