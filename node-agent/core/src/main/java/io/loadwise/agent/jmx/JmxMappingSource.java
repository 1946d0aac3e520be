package io.loadwise.agent.jmx;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.MetricGroup;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import javax.management.MBeanServer;

/**
 * Samples application-server metrics through the chosen {@link JmxAdapter}. A mapping that matches no
 * MBean, or whose attribute is missing, produces no value: the metric is absent, never 0. Every sample
 * queries the MBeans anew, so MBeans that a server registers late (Liberty's session, JDBC and servlet
 * statistics appear on first use) are picked up as soon as they exist. The full sampler's instance logs
 * which mapped metrics are missing whenever that set changes, but only once the node has served traffic
 * for {@value #MISSING_GRACE_MILLIS} ms: a metric missing before then may just not be registered yet.
 * (GlassFish reports nothing until its monitoring levels are raised, and the adapter's hint says how.)
 */
public final class JmxMappingSource implements MetricSource {

    private static final System.Logger LOG = System.getLogger(JmxMappingSource.class.getName());

    /** Traffic a node serves before a mapped metric it does not report is logged as missing. */
    public static final long MISSING_GRACE_MILLIS = 60_000;

    private final MBeanServer server;
    private final JmxAdapterChoice choice;
    private final Set<String> only;
    private final boolean reportMissing;
    private final LongSupplier trafficMillis;
    private JmxAdapter sampledAdapter;
    private JmxAdapter restricted;
    private boolean initInvoked;
    private Set<String> lastMissing = Set.of();
    private Set<String> loggedMissing = Set.of();

    /**
     * @param only the metrics to sample (the policy subset), or {@code null} for all mapped metrics
     * @param reportMissing whether this instance logs missing metrics (only one instance should)
     */
    public JmxMappingSource(MBeanServer server, JmxAdapterChoice choice, Set<String> only, boolean reportMissing) {
        this(server, choice, only, reportMissing, () -> Long.MAX_VALUE);
    }

    /**
     * @param trafficMillis how long the node has served traffic, -1 before its first request; missing
     *     metrics are logged only past {@link #MISSING_GRACE_MILLIS}
     */
    public JmxMappingSource(MBeanServer server, JmxAdapterChoice choice, Set<String> only, boolean reportMissing,
                            LongSupplier trafficMillis) {
        this.server = server;
        this.choice = choice;
        this.only = only;
        this.reportMissing = reportMissing;
        this.trafficMillis = trafficMillis;
    }

    @Override
    public MetricGroup group() {
        return MetricGroup.APP_SERVER;
    }

    /** {@code jmx:<adapter>} once an adapter is chosen, else {@code none}. */
    public String sourceName() {
        JmxAdapter adapter = choice.resolve(server);
        return adapter == null ? "none" : "jmx:" + adapter.name();
    }

    @Override
    public void collect(MetricSink sink) {
        JmxAdapter adapter = choice.resolve(server);
        if (adapter == null) {
            return;
        }
        if (adapter != sampledAdapter) {
            sampledAdapter = adapter;
            restricted = only == null ? adapter : adapter.restrictedTo(only);
            initInvoked = false;
        }
        invokeInitOnce(adapter);
        Map<String, Double> values = new HashMap<>();
        for (JmxMapping mapping : restricted.mappings()) {
            double v = mapping.evaluate(server);
            if (!Double.isNaN(v)) {
                values.put(mapping.metric(), v);
            }
        }
        for (DerivedRatio ratio : restricted.derived()) {
            double v = ratio.evaluate(values);
            if (!Double.isNaN(v)) {
                values.put(ratio.metric(), v);
            }
        }
        for (String metric : new TreeSet<>(values.keySet())) {
            sink.put(metric, values.get(metric));
        }
        if (reportMissing) {
            reportMissing(restricted, values);
        }
    }

    private void invokeInitOnce(JmxAdapter adapter) {
        if (initInvoked || adapter.initBean() == null) {
            return;
        }
        initInvoked = true;
        try {
            if (server.isRegistered(adapter.initBean())) {
                server.invoke(adapter.initBean(), adapter.initOperation(), new Object[0], new String[0]);
                LOG.log(Level.INFO, "Loadwise agent: invoked {0}.{1} for JMX adapter ''{2}''",
                        adapter.initBean(), adapter.initOperation(), adapter.name());
            }
        } catch (Exception e) {
            LOG.log(Level.WARNING, "Loadwise agent: JMX adapter ''" + adapter.name() + "'' could not invoke "
                    + adapter.initBean() + "." + adapter.initOperation() + ": " + e);
        }
    }

    private void reportMissing(JmxAdapter adapter, Map<String, Double> values) {
        Set<String> missing = new TreeSet<>(adapter.metrics());
        missing.removeAll(values.keySet());
        lastMissing = missing;
        if (missing.equals(loggedMissing) || trafficMillis.getAsLong() < MISSING_GRACE_MILLIS) {
            return;
        }
        loggedMissing = missing;
        if (missing.isEmpty()) {
            LOG.log(Level.INFO, "Loadwise agent: JMX adapter ''{0}'' now reports all {1} mapped metrics",
                    adapter.name(), adapter.metrics().size());
        } else {
            LOG.log(Level.INFO, "Loadwise agent: JMX adapter ''{0}'': this server does not expose {1} (absent "
                    + "from reports, not 0). {2}", adapter.name(), missing, adapter.hint());
        }
    }

    /** Every metric the chosen adapter maps (empty while none is chosen). */
    public Set<String> mapped() {
        JmxAdapter adapter = choice.resolve(server);
        return adapter == null ? Set.of() : adapter.metrics();
    }

    /** The mapped metrics missing from the latest sample (for the HTML page and tests). */
    public Set<String> missing() {
        return lastMissing;
    }

    /** The missing metrics as last logged (empty until something was logged missing). */
    public Set<String> loggedMissing() {
        return loggedMissing;
    }
}
