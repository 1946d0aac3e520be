package io.loadwise.agent.jmx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.Attribute;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.ReflectionException;

/**
 * One metric read from JMX: the MBeans matching an ObjectName pattern, an attribute (or a ratio of two
 * attributes of the same MBean), combined over all matching MBeans. A ratio sums numerators and
 * denominators separately (busy threads over max threads across all connectors) and is a percentage
 * when the metric name ends with {@code %}.
 */
final class JmxMapping {

    /** How values of several matching MBeans combine. */
    enum Aggregate { SUM, MAX, MIN, AVG }

    private final String metric;
    private final ObjectName pattern;
    private final AttributePath value;
    private final AttributePath maximum;
    private final Aggregate aggregate;
    private final double scale;
    private final String[] attributeNames;

    JmxMapping(String metric, ObjectName pattern, AttributePath value, AttributePath maximum,
               Aggregate aggregate, double scale) {
        this.metric = metric;
        this.pattern = pattern;
        this.value = value;
        this.maximum = maximum;
        this.aggregate = aggregate;
        this.scale = scale;
        Set<String> names = new LinkedHashSet<>(value.attributeNames());
        if (maximum != null) {
            names.addAll(maximum.attributeNames());
        }
        this.attributeNames = names.toArray(new String[0]);
    }

    String metric() {
        return metric;
    }

    /** The current value, or NaN when no matching MBean has the attribute(s). */
    double evaluate(MBeanServer server) {
        List<double[]> perBean = new ArrayList<>();
        for (ObjectName name : server.queryNames(pattern, null)) {
            Map<String, Object> found = read(server, name);
            double v = value.value(found);
            double max = maximum == null ? 1 : maximum.value(found);
            if (!Double.isNaN(v) && !Double.isNaN(max) && (maximum == null || max > 0)) {
                perBean.add(new double[] {v, max});
            }
        }
        if (perBean.isEmpty()) {
            return Double.NaN;
        }
        double result = maximum == null ? combine(perBean) : ratio(perBean);
        return result * scale;
    }

    private Map<String, Object> read(MBeanServer server, ObjectName name) {
        Map<String, Object> found = new HashMap<>();
        try {
            for (Object o : server.getAttributes(name, attributeNames)) {
                Attribute a = (Attribute) o;
                found.put(a.getName(), a.getValue());
            }
        } catch (InstanceNotFoundException | ReflectionException e) {
            // unregistered between query and read (an undeployed context): it simply does not count
        }
        return found;
    }

    private double combine(List<double[]> perBean) {
        double acc = aggregate == Aggregate.MIN ? Double.MAX_VALUE : aggregate == Aggregate.MAX ? -Double.MAX_VALUE : 0;
        for (double[] v : perBean) {
            switch (aggregate) {
                case MAX -> acc = Math.max(acc, v[0]);
                case MIN -> acc = Math.min(acc, v[0]);
                default -> acc += v[0];
            }
        }
        return aggregate == Aggregate.AVG ? acc / perBean.size() : acc;
    }

    private double ratio(List<double[]> perBean) {
        double num = 0;
        double den = 0;
        for (double[] v : perBean) {
            num += v[0];
            den += v[1];
        }
        return (metric.endsWith("%") ? 100 : 1) * num / den;
    }

    @Override
    public String toString() {
        return metric + " = " + pattern + " | " + value + (maximum == null ? "" : " / " + maximum)
                + " | " + aggregate.name().toLowerCase(java.util.Locale.ROOT) + (scale == 1 ? "" : " scale=" + scale);
    }
}
