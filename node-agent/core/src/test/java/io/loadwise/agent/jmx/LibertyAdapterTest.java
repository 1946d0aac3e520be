package io.loadwise.agent.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.metric.MetricSink;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * The built-in Liberty mapping on a real MBeanServer whose statistics MBeans are registered late, as
 * Liberty registers them on first use: they are read as soon as they exist, and a metric is logged as
 * missing only once it has stayed absent past the first minute of traffic.
 */
class LibertyAdapterTest {

    private final MBeanServer server = MBeanServerFactory.newMBeanServer();
    private final AtomicLong trafficMillis = new AtomicLong(-1);

    private void register(String name, Map<String, Object> attributes) throws Exception {
        server.registerMBean(new AttributeBean(attributes), new ObjectName(name));
    }

    private JmxMappingSource source() {
        JmxAdapterChoice choice = new JmxAdapterChoice(JmxAdapters.builtIn(), true,
                JmxMappingParser.parse(new java.util.Properties(), "none"), Set.of());
        return new JmxMappingSource(server, choice, null, true, trafficMillis::get);
    }

    private static Map<String, Double> collect(JmxMappingSource source) {
        MetricSink sink = new MetricSink();
        source.collect(sink);
        return Map.copyOf(sink.values());
    }

    @Test
    void autoDetectsLibertyAndReadsLazilyRegisteredStatisticsOnceTheyExist() throws Exception {
        register("WebSphere:feature=kernel,name=ServerInfo", Map.of("Name", "defaultServer"));
        register("WebSphere:type=ThreadPoolStats,name=Default Executor", Map.of("ActiveThreads", 3, "PoolSize", 4));
        JmxMappingSource source = source();
        Map<String, Double> before = collect(source);
        assertEquals("jmx:liberty", source.sourceName());
        assertEquals(3.0, before.get("AMX_CONNS_Q_THRBSY"));
        assertFalse(before.containsKey("AMX_CONNS_Q_THRBSY%"), "no fixed maximum: the filter stands in");
        assertFalse(before.containsKey("AMX_SESSIONS_ACT"));

        // the first requests create a session and use a servlet: Liberty registers their MBeans now
        register("WebSphere:type=SessionStats,name=default_host/trade", Map.of("LiveCount", 7L, "ActiveCount", 1L));
        register("WebSphere:type=HttpServerStats,name=\"method:GET;status:200;httpRoute:/trade/\"",
                Map.of("Count", 30L, "Duration", 9.0e7));
        register("WebSphere:type=HttpServerStats,name=\"method:POST;status:200;httpRoute:/trade/\"",
                Map.of("Count", 10L, "Duration", 1.1e8));
        register("WebSphere:type=ConnectionPoolStats,name=jdbc/trade", Map.of("ConnectionHandleCount", 2L));
        Map<String, Double> after = collect(source);
        assertEquals(7.0, after.get("AMX_SESSIONS_ACT"));
        assertEquals(40.0, after.get("AMX_RQST_TOTAL"));
        assertEquals(5.0, after.get("AMX_RQST_AVETIME"), 1e-9, "(90 + 110 ms) over 40 requests");
        assertEquals(2.0, after.get("AMX_JDBC_ACTC"));
    }

    @Test
    void missingMetricsAreLoggedOnlyAfterAMinuteOfTraffic() throws Exception {
        register("WebSphere:feature=kernel,name=ServerInfo", Map.of("Name", "defaultServer"));
        JmxMappingSource source = source();
        collect(source);
        assertTrue(source.missing().contains("AMX_SESSIONS_ACT"), source.missing().toString());
        assertEquals(Set.of(), source.loggedMissing(), "no traffic yet: nothing is logged missing");

        trafficMillis.set(JmxMappingSource.MISSING_GRACE_MILLIS - 1);
        collect(source);
        assertEquals(Set.of(), source.loggedMissing(), "within the first minute of traffic");

        register("WebSphere:type=SessionStats,name=default_host/trade", Map.of("LiveCount", 1L));
        trafficMillis.set(JmxMappingSource.MISSING_GRACE_MILLIS);
        collect(source);
        assertFalse(source.loggedMissing().isEmpty());
        assertFalse(source.loggedMissing().contains("AMX_SESSIONS_ACT"), "it appeared in time");
        assertTrue(source.loggedMissing().contains("AMX_JDBC_ACTC"), source.loggedMissing().toString());
    }
}
