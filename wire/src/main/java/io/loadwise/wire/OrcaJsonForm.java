package io.loadwise.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON form of the ORCA header: {@code JSON {"cpu_utilization":0.23,"named_metrics":{"jvm_heap_used":0.45}}},
 * written with the proto field names (which the proto3 JSON mapping Envoy uses accepts). Accepts the proto field names and their proto3-JSON lowerCamel spellings; nested maps
 * ({@code named_metrics}, {@code utilization}) flatten to {@code map.key}, as in the TEXT form.
 */
final class OrcaJsonForm {

    private OrcaJsonForm() {
    }

    /**
     * The JSON object of {@code count} pairs; keys {@code map.key} go into a nested object {@code map}, so
     * keys of one map must be adjacent (as {@link OrcaLoadReport} orders them).
     */
    static String encode(String[] keys, double[] values, int count) {
        StringBuilder out = new StringBuilder(256).append('{');
        String openMap = null;
        for (int i = 0; i < count; i++) {
            int dot = keys[i].indexOf('.');
            String map = dot < 0 ? null : keys[i].substring(0, dot);
            if (openMap != null && !openMap.equals(map)) {
                out.append('}');
                openMap = null;
            }
            out.append(i == 0 ? "" : ",");
            if (map != null && openMap == null) {
                out.append('"').append(map).append("\":{");
                openMap = map;
            }
            out.append('"').append(dot < 0 ? keys[i] : keys[i].substring(dot + 1)).append("\":");
            WireNumbers.append(out, values[i]);
        }
        return out.append(openMap != null ? "}}" : "}").toString();
    }

    static Map<String, Double> parse(String json) throws MalformedLoadReportException {
        Object root = JsonReader.parse(json.strip());
        if (!(root instanceof Map)) {
            throw new MalformedLoadReportException("Load report JSON must be an object");
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (Map.Entry<String, ?> e : castMap(root).entrySet()) {
            String key = snakeCase(e.getKey());
            Object value = e.getValue();
            if (value instanceof Map) {
                for (Map.Entry<String, ?> inner : castMap(value).entrySet()) {
                    OrcaLoadReport.put(out, key + "." + inner.getKey(), number(key + "." + inner.getKey(), inner.getValue()));
                }
            } else {
                OrcaLoadReport.put(out, key, number(key, value));
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> castMap(Object value) {
        return (Map<String, ?>) value;
    }

    private static double number(String key, Object value) throws MalformedLoadReportException {
        if (value instanceof Double) {
            return (Double) value;
        }
        throw new MalformedLoadReportException("Load report key '" + key + "' must be a number, got "
                + (value == null ? "null" : value.getClass().getSimpleName()));
    }

    /** {@code cpuUtilization} becomes {@code cpu_utilization}; snake case stays as it is. */
    private static String snakeCase(String key) {
        StringBuilder sb = new StringBuilder(key.length() + 4);
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isUpperCase(c)) {
                sb.append('_').append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
