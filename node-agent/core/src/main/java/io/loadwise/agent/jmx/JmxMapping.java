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
 *
 * <p>A metric may have several sources ({@code ||} in a mapping), whose MBeans are pooled as if one
 * pattern had matched them all. That is how Tomcat's worker threads are read: a connector with its own
 * pool reports them on its ThreadPool MBean, one bound to a shared {@code <Executor>} reports -1 there
 * (left out) and the Executor MBean holds them.
 */
final class JmxMapping {

    /** How values of several matching MBeans combine. */
    enum Aggregate { SUM, MAX, MIN, AVG }

    /** One {@code <ObjectName pattern> | <attribute>[ / <max attribute>]} of a mapping. */
    record Source(ObjectName pattern, AttributePath value, AttributePath maximum) {

        String[] attributeNames() {
            Set<String> names = new LinkedHashSet<>(value.attributeNames());
            if (maximum != null) {
                names.addAll(maximum.attributeNames());
            }
            return names.toArray(new String[0]);
        }

        @Override
        public String toString() {
            return pattern + " | " + value + (maximum == null ? "" : " / " + maximum);
        }
    }

    private final String metric;
    private final List<Source> sources;
    private final String[][] attributeNames;
    private final boolean ratio;
    private final Aggregate aggregate;
    private final double scale;

    /** {@code sources} are all ratios or all plain values (the parser checks it). */
    JmxMapping(String metric, List<Source> sources, Aggregate aggregate, double scale) {
        this.metric = metric;
        this.sources = List.copyOf(sources);
        this.ratio = sources.get(0).maximum() != null;
        this.aggregate = aggregate;
        this.scale = scale;
        this.attributeNames = new String[sources.size()][];
        for (int i = 0; i < sources.size(); i++) {
            attributeNames[i] = sources.get(i).attributeNames();
        }
    }

    String metric() {
        return metric;
    }

    /** The current value, or NaN when no matching MBean has the attribute(s). */
    double evaluate(MBeanServer server) {
        List<double[]> perBean = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            Source source = sources.get(i);
            for (ObjectName name : server.queryNames(source.pattern(), null)) {
                Map<String, Object> found = read(server, name, attributeNames[i]);
                double v = source.value().value(found);
                double max = ratio ? source.maximum().value(found) : 1;
                if (!Double.isNaN(v) && !Double.isNaN(max) && max > 0) {
                    perBean.add(new double[] {v, max});
                }
            }
        }
        if (perBean.isEmpty()) {
            return Double.NaN;
        }
        double result = ratio ? ratio(perBean) : combine(perBean);
        return result * scale;
    }

    private static Map<String, Object> read(MBeanServer server, ObjectName name, String[] attributeNames) {
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
        StringBuilder text = new StringBuilder(metric).append(" = ");
        for (int i = 0; i < sources.size(); i++) {
            text.append(i == 0 ? "" : " || ").append(sources.get(i));
        }
        return text + " | " + aggregate.name().toLowerCase(java.util.Locale.ROOT) + (scale == 1 ? "" : " scale=" + scale);
    }
}
