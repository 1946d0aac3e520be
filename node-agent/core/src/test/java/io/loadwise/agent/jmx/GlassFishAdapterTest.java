package io.loadwise.agent.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.metric.MetricSink;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import org.junit.jupiter.api.Test;

/**
 * The built-in GlassFish mapping file against MBeans named and shaped as GlassFish's AMX documents them
 * (JSR-77 statistics as CompositeData, sizes as strings). It checks detection, the AMX boot call, the
 * missing-metric report while monitoring is off, and the values once it is on. Real-server tests on
 * GlassFish 7 come later.
 */
class GlassFishAdapterTest {

    private static final String MON = "amx:pp=/mon/server-mon[server],";

    private final MBeanServer server = MBeanServerFactory.newMBeanServer();

    private static CompositeData count(long value) {
        return statistic("CountStatistic", "count", value);
    }

    private static CompositeData range(long value) {
        return statistic("RangeStatistic", "current", value);
    }

    private static CompositeData statistic(String type, String item, long value) {
        try {
            CompositeType t = new CompositeType(type, type, new String[] {item, "name"}, new String[] {item, "name"},
                    new OpenType<?>[] {SimpleType.LONG, SimpleType.STRING});
            return new CompositeDataSupport(t, new String[] {item, "name"}, new Object[] {value, type});
        } catch (OpenDataException e) {
            throw new IllegalStateException(e);
        }
    }

    private void register(String name, Map<String, Object> attributes) {
        try {
            server.registerMBean(new AttributeBean(attributes), new ObjectName(name));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void detectsGlassFishBootsAmxReportsMissingMetricsThenReadsMonitoringStatistics() throws Exception {
        AtomicInteger boots = new AtomicInteger();
        server.registerMBean(new AttributeBean(Map.of(), Map.of("bootAMX", boots::incrementAndGet)),
                new ObjectName("amx-support:type=boot-amx"));
        // configuration MBeans exist whatever the monitoring level
        register("amx:pp=/domain/resources,type=jdbc-connection-pool,name=AppPool", Map.of("MaxPoolSize", "32"));
        JmxAdapterChoice choice = new JmxAdapterChoice(JmxAdapters.builtIn(), true,
                JmxMappingParser.parse(new Properties(), "none"), Set.of());
        JmxMappingSource source = new JmxMappingSource(server, choice, null, true);
        assertEquals("jmx:glassfish", source.sourceName());

        MetricSink off = new MetricSink();
        source.collect(off);
        assertEquals(1, boots.get(), "bootAMX invoked once before sampling");
        assertEquals(Map.of("AMX_JDBC_MAXC", 32.0), off.values(), "monitoring off: only configuration is known");
        assertTrue(source.missing().containsAll(Set.of("AMX_CONNS_Q_THRBSY%", "AMX_SESSIONS_ACT", "AMX_JDBC_ACTC%",
                "AMX_CONNS_Q_USED%")), source.missing().toString());

        // asadmin enable-monitoring ...: the monitoring MBeans appear
        register(MON + "type=thread-pool-mon,name=network/http-listener-1/thread-pool",
                Map.of("currentthreadsbusy", count(3), "maxthreads", count(12), "corethreads", count(2)));
        register(MON + "type=thread-pool-mon,name=network/admin-listener/thread-pool",
                Map.of("currentthreadsbusy", count(1), "maxthreads", count(50)));
        // the HTTPS listener has a pool of its own, as large and idle (seen on GlassFish 7.0.21)
        register(MON + "type=thread-pool-mon,name=network/http-listener-2/thread-pool",
                Map.of("currentthreadsbusy", count(0), "maxthreads", count(12), "corethreads", count(2)));
        register(MON + "type=connection-queue-mon,name=network/http-listener-1/connection-queue",
                Map.of("countqueued", count(4), "maxqueued", count(16), "countoverflows", count(0),
                        "countopenconnections", count(9), "countqueued1minuteaverage", count(2)));
        register(MON + "type=request-mon,name=http-service/server/request",
                Map.of("countrequests", count(100), "errorcount", count(1), "maxtime", count(250), "processingtime", count(12)));
        register(MON + "type=session-mon,name=web/session", Map.of("activesessionscurrent", range(7)));
        register(MON + "type=jdbc-connection-pool-mon,name=resources/AppPool", Map.of("numconnused", range(8)));

        MetricSink on = new MetricSink();
        source.collect(on);
        Map<String, Double> v = on.values();
        assertEquals(3.0, v.get("AMX_CONNS_Q_THRBSY"), "admin listener not counted");
        assertEquals(12.0, v.get("AMX_CONNS_Q_THRDSMAX"), "the idle HTTPS listener's pool not counted");
        assertEquals(25.0, v.get("AMX_CONNS_Q_THRBSY%"), 1e-9);
        assertEquals(25.0, v.get("AMX_CONNS_Q_USED%"), 1e-9);
        assertEquals(4.0, v.get("AMX_CONNS_QD"));
        assertEquals(0.0, v.get("AMX_CONNS_DENIED"), "a real 0 from the server is reported as 0");
        assertEquals(9.0, v.get("AMX_CONNS_OPEN"));
        assertEquals(100.0, v.get("AMX_RQST_TOTAL"));
        assertEquals(12.0, v.get("AMX_RQST_AVETIME"));
        assertEquals(7.0, v.get("AMX_SESSIONS_ACT"));
        assertEquals(25.0, v.get("AMX_JDBC_ACTC%"), 1e-9);
        assertFalse(v.containsKey("AMX_CONNS_KEEPALVMAX"), "keep-alive MBean not registered: absent");
        assertTrue(source.missing().contains("AMX_CONNS_KEEPALVMAX"));
        assertEquals(1, boots.get());
    }
}
