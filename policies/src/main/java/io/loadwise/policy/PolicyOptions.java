package io.loadwise.policy;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Numeric options of a policy ({@code "policyOptions": {"heapThreshold": 85}} in the cluster config).
 * Immutable. Policies read them in {@link LoadBalancingPolicy#newPicker}, never per pick.
 */
public final class PolicyOptions {

    public static final PolicyOptions EMPTY = new PolicyOptions(Map.of());

    private final Map<String, Double> values;

    private PolicyOptions(Map<String, Double> values) {
        this.values = values;
    }

    public static PolicyOptions of(Map<String, ? extends Number> values) {
        Map<String, Double> copy = new TreeMap<>();
        values.forEach((k, v) -> copy.put(k, v.doubleValue()));
        return new PolicyOptions(Map.copyOf(copy));
    }

    public double get(String name, double defaultValue) {
        Double v = values.get(name);
        return v == null ? defaultValue : v;
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public Map<String, Double> asMap() {
        return values;
    }

    /** One message per option whose name is not in {@code known}. */
    public List<String> rejectUnknown(Collection<String> known) {
        List<String> errors = new ArrayList<>();
        for (String name : new TreeMap<>(values).keySet()) {
            if (!known.contains(name)) {
                errors.add("policyOptions." + name + ": unknown option"
                        + (known.isEmpty() ? " (this policy takes none)" : ", known: " + String.join(", ", known)));
            }
        }
        return errors;
    }

    /** Adds a message when option {@code name} is present and outside [min, max]. */
    public void checkRange(String name, double min, double max, List<String> errors) {
        Double v = values.get(name);
        if (v != null && (v.isNaN() || v < min || v > max)) {
            errors.add("policyOptions." + name + ": " + v + " out of range " + min + ".." + max);
        }
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
