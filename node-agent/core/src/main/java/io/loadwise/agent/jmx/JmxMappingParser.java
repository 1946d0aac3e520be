package io.loadwise.agent.jmx;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Parses JMX mappings from properties (a mapping file, or the agent configuration):
 *
 * <pre>
 * jmx.map.&lt;METRIC&gt; = &lt;ObjectName pattern&gt; | &lt;attribute&gt;[ / &lt;max attribute&gt;][ | sum|max|min|avg][ | scale=&lt;factor&gt;]
 * jmx.map.&lt;METRIC&gt; = &lt;source&gt; || &lt;source&gt;[ | options]   (MBeans of both pooled; a source is pattern | attribute[ / max])
 * jmx.map.&lt;METRIC&gt; = &lt;METRIC&gt; / &lt;METRIC&gt;      (ratio of two mapped metrics)
 * jmx.map.&lt;METRIC&gt; =                          (removes a built-in mapping)
 * jmx.adapter.name   = wildfly
 * jmx.adapter.detect = &lt;ObjectName pattern that only this server registers&gt;
 * jmx.adapter.init   = &lt;ObjectName&gt; | &lt;no-argument operation invoked once before sampling&gt;
 * jmx.adapter.hint   = &lt;text logged with the list of missing metrics&gt;
 * </pre>
 *
 * An attribute may list alternatives ({@code numActive,active}) and address a CompositeData item
 * ({@code currentthreadsbusy.count}).
 */
public final class JmxMappingParser {

    public static final String MAP_PREFIX = "jmx.map.";
    public static final String ADAPTER_PREFIX = "jmx.adapter.";

    private static final Pattern METRIC_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.%-]*");
    private static final Pattern DERIVED = Pattern.compile("\\s*(" + METRIC_NAME + ")\\s*/\\s*(" + METRIC_NAME + ")\\s*");

    private JmxMappingParser() {
    }

    /** Parses every {@code jmx.*} key; other keys are ignored. {@code origin} names the source in errors. */
    public static JmxAdapter parse(Properties properties, String origin) {
        return parse(properties, origin, new HashSet<>());
    }

    /**
     * As {@link #parse(Properties, String)}, also collecting into {@code removed} the metrics whose
     * mapping is empty (to be removed from an adapter this one overrides).
     */
    public static JmxAdapter parse(Properties properties, String origin, Set<String> removed) {
        Map<String, JmxMapping> mappings = new LinkedHashMap<>();
        Map<String, DerivedRatio> derived = new LinkedHashMap<>();
        for (String key : new java.util.TreeSet<>(properties.stringPropertyNames())) {
            if (!key.startsWith(MAP_PREFIX)) {
                continue;
            }
            String metric = key.substring(MAP_PREFIX.length());
            String where = origin + ": " + key;
            if (!METRIC_NAME.matcher(metric).matches()) {
                throw new InvalidMappingException(where + ": '" + metric + "' is not a valid metric name");
            }
            String spec = properties.getProperty(key).strip();
            if (spec.isEmpty()) {
                removed.add(metric);
            } else if (spec.indexOf('|') < 0) {
                derived.put(metric, parseDerived(metric, spec, where));
            } else {
                mappings.put(metric, parseMapping(metric, spec, where));
            }
        }
        String init = properties.getProperty(ADAPTER_PREFIX + "init", "").strip();
        ObjectName initBean = null;
        String initOperation = null;
        if (!init.isEmpty()) {
            String[] parts = init.split("\\|");
            if (parts.length != 2 || parts[1].isBlank()) {
                throw new InvalidMappingException(origin + ": " + ADAPTER_PREFIX + "init must be '<ObjectName> | <operation>'");
            }
            initBean = objectName(parts[0], origin + ": " + ADAPTER_PREFIX + "init");
            initOperation = parts[1].strip();
        }
        String detect = properties.getProperty(ADAPTER_PREFIX + "detect", "").strip();
        return new JmxAdapter(
                properties.getProperty(ADAPTER_PREFIX + "name", "").strip(),
                detect.isEmpty() ? null : objectName(detect, origin + ": " + ADAPTER_PREFIX + "detect"),
                initBean, initOperation,
                properties.getProperty(ADAPTER_PREFIX + "hint", "").strip(),
                mappings, derived);
    }

    private static DerivedRatio parseDerived(String metric, String spec, String where) {
        Matcher m = DERIVED.matcher(spec);
        if (!m.matches()) {
            throw new InvalidMappingException(where + ": expected '<ObjectName pattern> | <attribute>' or "
                    + "'<METRIC> / <METRIC>', got '" + spec + "'");
        }
        return new DerivedRatio(metric, m.group(1), m.group(2));
    }

    private static JmxMapping parseMapping(String metric, String spec, String where) {
        String[] alternatives = spec.split("\\|\\|", -1);
        List<JmxMapping.Source> sources = new ArrayList<>();
        String[] parts = null;
        for (int i = 0; i < alternatives.length; i++) {
            if (alternatives[i].isBlank()) {
                throw new InvalidMappingException(where + ": an empty source next to '||'");
            }
            parts = alternatives[i].split("\\|");
            if (i < alternatives.length - 1 && parts.length > 2) {
                throw new InvalidMappingException(where + ": options go after the last source, not before '||'");
            }
            sources.add(parseSource(parts, where));
        }
        boolean ratio = sources.get(0).maximum() != null;
        for (JmxMapping.Source source : sources) {
            if ((source.maximum() != null) != ratio) {
                throw new InvalidMappingException(where + ": the sources joined by '||' must all be ratios ('a / b')"
                        + " or all plain attributes");
            }
        }
        JmxMapping.Aggregate aggregate = JmxMapping.Aggregate.SUM;
        double scale = 1;
        for (int i = 2; i < parts.length; i++) {
            String option = parts[i].strip().toLowerCase(Locale.ROOT);
            if (option.startsWith("scale=")) {
                scale = parseScale(option.substring(6), where);
            } else {
                try {
                    aggregate = JmxMapping.Aggregate.valueOf(option.toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new InvalidMappingException(where + ": unknown option '" + option
                            + "' (expected sum, max, min, avg or scale=<factor>)", e);
                }
            }
        }
        return new JmxMapping(metric, sources, aggregate, scale);
    }

    private static JmxMapping.Source parseSource(String[] parts, String where) {
        ObjectName pattern = objectName(parts[0], where);
        if (parts.length < 2 || parts[1].isBlank()) {
            throw new InvalidMappingException(where + ": missing attribute after '|'");
        }
        String[] ratio = parts[1].split("/");
        if (ratio.length > 2) {
            throw new InvalidMappingException(where + ": more than one '/' in '" + parts[1].strip() + "'");
        }
        AttributePath value = AttributePath.parse(ratio[0], where);
        AttributePath maximum = ratio.length == 2 ? AttributePath.parse(ratio[1], where) : null;
        return new JmxMapping.Source(pattern, value, maximum);
    }

    private static double parseScale(String text, String where) {
        try {
            double scale = Double.parseDouble(text);
            if (Double.isFinite(scale) && scale > 0) {
                return scale;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InvalidMappingException(where + ": scale must be a positive number, got '" + text + "'");
    }

    private static ObjectName objectName(String text, String where) {
        try {
            return new ObjectName(text.strip());
        } catch (MalformedObjectNameException e) {
            throw new InvalidMappingException(where + ": invalid ObjectName pattern '" + text.strip() + "': "
                    + e.getMessage(), e);
        }
    }
}
