package io.loadwise.agent.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.loadwise.agent.metric.MetricSink;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * The built-in WildFly mapping against MBeans named and shaped as WildFly 39 registers them (read from a
 * running server with statistics enabled); WildFlyNodeIT runs it on the real server.
 */
class WildFlyAdapterTest {

    private final MBeanServer server = MBeanServerFactory.newMBeanServer();

    private void register(String name, Map<String, Object> attributes) throws Exception {
        server.registerMBean(new AttributeBean(attributes), new ObjectName(name));
    }

    @Test
    void autoDetectsWildFlyAndMapsWorkerListenerSessionsAndPool() throws Exception {
        register("jboss.as:management-root=server", Map.of("productName", "WildFly"));
        register("jboss.as:subsystem=io,worker=default", Map.of("busyTaskThreadCount", 8, "maxPoolSize", 32,
                "corePoolSize", 2, "queueSize", 5));
        register("org.xnio:type=Xnio,provider=\"nio\",worker=\"default\",address=\"/127.0.0.1:8080\"",
                Map.of("ConnectionCount", 3));
        register("org.xnio:type=Xnio,provider=\"nio\",worker=\"management\",address=\"/127.0.0.1:9990\"",
                Map.of("ConnectionCount", 100));
        register("jboss.as:subsystem=undertow,server=default-server,http-listener=default",
                Map.of("requestCount", 120L, "errorCount", 2L));
        register("jboss.as:deployment=trade.war,subsystem=undertow", Map.of("activeSessions", 4));
        register("jboss.as:deployment=shop.ear,subdeployment=web.war,subsystem=undertow", Map.of("activeSessions", 1));
        register("jboss.as:subsystem=datasources,data-source=TradeDS,statistics=pool",
                Map.of("InUseCount", 3, "AvailableCount", 1));
        JmxAdapterChoice choice = new JmxAdapterChoice(JmxAdapters.builtIn(), true,
                JmxMappingParser.parse(new Properties(), "none"), Set.of());
        JmxMappingSource source = new JmxMappingSource(server, choice, null, true);
        MetricSink sink = new MetricSink();
        source.collect(sink);
        Map<String, Double> m = sink.values();
        assertEquals("jmx:wildfly", source.sourceName());
        assertEquals(25.0, m.get("AMX_CONNS_Q_THRBSY%"), 1e-9);
        assertEquals(32.0, m.get("AMX_CONNS_Q_THRDSMAX"));
        assertEquals(5.0, m.get("AMX_CONNS_QD"));
        assertEquals(3.0, m.get("AMX_CONNS_OPEN"), "the management worker's connections do not count");
        assertEquals(120.0, m.get("AMX_RQST_TOTAL"));
        assertEquals(2.0, m.get("AMX_RQST_ERRS"));
        assertEquals(5.0, m.get("AMX_SESSIONS_ACT"), "deployments and EAR sub-deployments");
        assertEquals(4.0, m.get("AMX_JDBC_MAXC"), "in use plus available");
        assertEquals(75.0, m.get("AMX_JDBC_ACTC%"), 1e-9);
        assertFalse(m.containsKey("AMX_CONNS_Q_USED%"), "Undertow's queue is unbounded: the filter stands in");
    }
}
