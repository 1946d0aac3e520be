package io.loadwise.agent.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.metric.MetricSink;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The mapping engine against a real (private) MBean server holding MBeans shaped like server ones. */
class JmxMappingTest {

    private static javax.management.openmbean.CompositeData countStatistic(long count) {
        try {
            CompositeType type = new CompositeType("CountStatistic", "count", new String[] {"count", "unit"},
                    new String[] {"count", "unit"}, new OpenType<?>[] {SimpleType.LONG, SimpleType.STRING});
            return new CompositeDataSupport(type, new String[] {"count", "unit"}, new Object[] {count, "count"});
        } catch (javax.management.openmbean.OpenDataException e) {
            throw new IllegalStateException(e);
        }
    }

    private MBeanServer server;

    @BeforeEach
    void registerBeans() throws Exception {
        server = MBeanServerFactory.newMBeanServer();
        // attribute names as Tomcat's introspected MBeans spell them; maxConnections -1 means "unlimited"
        server.registerMBean(new AttributeBean(Map.of("currentThreadsBusy", 3, "maxThreads", 10, "maxConnections", -1L)),
                new ObjectName("Test:type=ThreadPool,name=\"http-nio-1\""));
        server.registerMBean(new AttributeBean(Map.of("currentThreadsBusy", 5, "maxThreads", 30, "maxConnections", -1L)),
                new ObjectName("Test:type=ThreadPool,name=\"http-nio-2\""));
        // GlassFish AMX style: a JSR-77 statistic and a size held as a string
        server.registerMBean(new AttributeBean(Map.of("countqueued", countStatistic(7), "MaxPoolSize", " 32 ")),
                new ObjectName("amx:pp=/mon,type=queue-mon,name=network/l1"));
    }

    private Map<String, Double> sample(String mappings) throws Exception {
        Properties p = new Properties();
        p.load(new StringReader(mappings));
        JmxAdapter adapter = JmxMappingParser.parse(p, "test");
        JmxMappingSource source = new JmxMappingSource(server, new JmxAdapterChoice(List.of(), true, adapter, Set.of()), null, true);
        MetricSink sink = new MetricSink();
        source.collect(sink);
        return sink.values();
    }

    @Test
    void sumsAttributesAndRatiosOverAllMatchingMBeans() throws Exception {
        Map<String, Double> v = sample(
                "jmx.map.AMX_CONNS_Q_THRBSY = *:type=ThreadPool,name=* | currentThreadsBusy\n"
                + "jmx.map.AMX_CONNS_Q_THRDSMAX = *:type=ThreadPool,name=* | maxThreads | max\n"
                + "jmx.map.AMX_CONNS_Q_THRBSY% = *:type=ThreadPool,name=* | currentThreadsBusy / maxThreads\n"
                + "jmx.map.AVG_BUSY = *:type=ThreadPool,name=* | currentThreadsBusy | avg | scale=10\n");
        assertEquals(8.0, v.get("AMX_CONNS_Q_THRBSY"));
        assertEquals(30.0, v.get("AMX_CONNS_Q_THRDSMAX"));
        assertEquals(20.0, v.get("AMX_CONNS_Q_THRBSY%"), 1e-9); // (3+5)/(10+30)
        assertEquals(40.0, v.get("AVG_BUSY"), 1e-9);
    }

    @Test
    void sourcesJoinedByOrArePooledAndAConnectorOnASharedExecutorCountsThere() throws Exception {
        // Tomcat: a connector bound to a shared <Executor> reports maxThreads -1 on its ThreadPool MBean
        server.registerMBean(new AttributeBean(Map.of("currentThreadsBusy", 4, "maxThreads", -1)),
                new ObjectName("Test:type=ThreadPool,name=\"http-nio-3\""));
        server.registerMBean(new AttributeBean(Map.of("activeCount", 4, "maxThreads", 20, "minSpareThreads", 2)),
                new ObjectName("Test:type=Executor,name=shared"));
        Map<String, Double> v = sample(
                "jmx.map.AMX_CONNS_Q_THRDSMAX = *:type=ThreadPool,name=* | maxThreads || *:type=Executor,name=* | maxThreads\n"
                + "jmx.map.MAX_OF_ANY = *:type=ThreadPool,name=* | maxThreads || *:type=Executor,name=* | maxThreads | max\n"
                + "jmx.map.AMX_CONNS_Q_THRBSY% = *:type=ThreadPool,name=* | currentThreadsBusy / maxThreads"
                + " || *:type=Executor,name=* | activeCount / maxThreads\n"
                + "jmx.map.NOTHING = *:type=Nope,* | a || *:type=Nada,* | b\n");
        assertEquals(60.0, v.get("AMX_CONNS_Q_THRDSMAX")); // 10 + 30 + 20, the -1 left out
        assertEquals(30.0, v.get("MAX_OF_ANY"));
        assertEquals(20.0, v.get("AMX_CONNS_Q_THRBSY%"), 1e-9); // (3 + 5 + 4) / (10 + 30 + 20)
        assertFalse(v.containsKey("NOTHING"));
    }

    @Test
    void missingMBeansAttributesAndUnlimitedValuesAreAbsentNotZero() throws Exception {
        Map<String, Double> v = sample(
                "jmx.map.AMX_SESSIONS_ACT = *:type=Manager,* | activeSessions\n"
                + "jmx.map.AMX_CONNS_QD = *:type=ThreadPool,name=* | noSuchAttribute\n"
                + "jmx.map.AMX_CONNS_MAX = *:type=ThreadPool,name=* | maxConnections\n"
                + "jmx.map.AMX_CONNS_USED% = *:type=ThreadPool,name=* | currentThreadsBusy / maxConnections\n"
                + "jmx.map.AMX_CONNS_Q_THRBSY = *:type=ThreadPool,name=* | currentThreadsBusy\n");
        assertEquals(Map.of("AMX_CONNS_Q_THRBSY", 8.0), v);
    }

    @Test
    void readsCompositeStatisticsNumericStringsAlternativesAndDerivedRatios() throws Exception {
        Map<String, Double> v = sample(
                "jmx.map.AMX_CONNS_QD = amx:type=queue-mon,* | countqueued\n"
                + "jmx.map.QD_EXPLICIT = amx:type=queue-mon,* | countqueued.count\n"
                + "jmx.map.AMX_JDBC_MAXC = amx:type=queue-mon,* | MaxPoolSize\n"
                + "jmx.map.AMX_JDBC_ACTC = *:type=ThreadPool,name=* | numActive,currentThreadsBusy\n"
                + "jmx.map.AMX_JDBC_ACTC% = AMX_JDBC_ACTC / AMX_JDBC_MAXC\n"
                + "jmx.map.BROKEN% = AMX_JDBC_ACTC / NOT_MAPPED\n");
        assertEquals(7.0, v.get("AMX_CONNS_QD"));
        assertEquals(7.0, v.get("QD_EXPLICIT"));
        assertEquals(32.0, v.get("AMX_JDBC_MAXC"));
        assertEquals(8.0, v.get("AMX_JDBC_ACTC"));
        assertEquals(25.0, v.get("AMX_JDBC_ACTC%"), 1e-9);
        assertFalse(v.containsKey("BROKEN%"));
    }

    @Test
    void addsAttributesOfOneMBeanOnlyWhenEveryTermIsThere() throws Exception {
        Map<String, Double> v = sample(
                "jmx.map.TOTAL = *:type=ThreadPool,name=* | currentThreadsBusy+maxThreads\n"
                + "jmx.map.BUSY_SHARE% = *:type=ThreadPool,name=* | currentThreadsBusy / currentThreadsBusy+maxThreads\n"
                + "jmx.map.PARTIAL = *:type=ThreadPool,name=* | currentThreadsBusy+nothing\n"
                + "jmx.map.FALLBACK = *:type=ThreadPool,name=* | currentThreadsBusy+nothing,maxThreads\n");
        assertEquals(48.0, v.get("TOTAL"), "(3+10)+(5+30)");
        assertEquals(100.0 * 8 / 48, v.get("BUSY_SHARE%"), 1e-9);
        assertFalse(v.containsKey("PARTIAL"), "a sum with a term missing is no value");
        assertEquals(40.0, v.get("FALLBACK"));
    }

    @Test
    void missingMetricsAreTrackedForTheOperator() throws Exception {
        Properties p = new Properties();
        p.setProperty("jmx.map.AMX_SESSIONS_ACT", "*:type=Manager,* | activeSessions");
        p.setProperty("jmx.map.AMX_CONNS_Q_THRBSY", "*:type=ThreadPool,name=* | currentThreadsBusy");
        JmxMappingSource source = new JmxMappingSource(server,
                new JmxAdapterChoice(List.of(), true, JmxMappingParser.parse(p, "t"), Set.of()), null, true);
        source.collect(new MetricSink());
        assertEquals(Set.of("AMX_SESSIONS_ACT"), source.missing());
        assertEquals("jmx:custom", source.sourceName());
    }

    @Test
    void detectsBuiltInAdapterAndAppliesOperatorOverridesAndRemovals() throws Exception {
        Properties p = new Properties();
        p.setProperty("jmx.map.AMX_CONNS_Q_THRBSY", "*:type=ThreadPool,name=* | currentThreadsBusy | max");
        p.setProperty("jmx.map.AMX_CONNS_Q_THRBSY%", "");
        java.util.Set<String> removed = new java.util.HashSet<>();
        JmxAdapter overrides = JmxMappingParser.parse(p, "t", removed);
        JmxAdapterChoice choice = new JmxAdapterChoice(JmxAdapters.builtIn(), true, overrides, removed);
        JmxMappingSource source = new JmxMappingSource(server, choice, null, false);
        assertEquals("jmx:custom", source.sourceName(), "no Engine MBean yet: operator mappings alone");
        server.registerMBean(new AttributeBean(Map.of("name", "Tomcat")), new ObjectName("Test:type=Engine"));
        assertEquals("jmx:tomcat", source.sourceName());
        MetricSink sink = new MetricSink();
        source.collect(sink);
        assertEquals(5.0, sink.values().get("AMX_CONNS_Q_THRBSY"), "operator mapping (max) replaced the built-in one (sum)");
        assertFalse(sink.values().containsKey("AMX_CONNS_Q_THRBSY%"), "operator removed it");
        assertEquals(40.0, sink.values().get("AMX_CONNS_Q_THRDSMAX"), "built-in mapping still there");
    }

    @Test
    void builtInAdaptersParseAndCoverThePolicyMetrics() {
        // what the filter stands in for (the queue and busy inputs), and Liberty's documented JDBC gap
        Map<String, Set<String>> notMapped = Map.of(
                "glassfish", Set.of(), "tomcat", Set.of(),
                "wildfly", Set.of("AMX_CONNS_Q_USED%"),
                "liberty", Set.of("AMX_CONNS_Q_USED%", "AMX_CONNS_Q_THRBSY%", "AMX_JDBC_ACTC%"));
        assertEquals(notMapped.keySet(), Set.copyOf(JmxAdapters.BUILT_IN));
        for (JmxAdapter adapter : JmxAdapters.builtIn()) {
            Set<String> policyMetrics = new java.util.HashSet<>(Set.of("AMX_CONNS_Q_THRBSY%", "AMX_SESSIONS_ACT",
                    "AMX_JDBC_ACTC%", "AMX_CONNS_Q_USED%"));
            policyMetrics.removeAll(notMapped.get(adapter.name()));
            assertTrue(adapter.metrics().containsAll(policyMetrics), adapter.name() + ": " + adapter.metrics());
            for (String absent : notMapped.get(adapter.name())) {
                assertFalse(adapter.metrics().contains(absent), adapter.name() + " maps " + absent);
            }
            assertFalse(adapter.hint().isEmpty());
        }
        assertThrows(InvalidMappingException.class, () -> JmxAdapters.builtIn("websphere"));
    }

    @Test
    void badMappingsFailWithTheKeyInTheMessage() {
        assertInvalid("jmx.map.X = not an object name | a", "invalid ObjectName");
        assertInvalid("jmx.map.X = *:type=A |", "missing attribute");
        assertInvalid("jmx.map.X = *:type=A | a / b / c", "more than one '/'");
        assertInvalid("jmx.map.X = *:type=A | a | median", "unknown option 'median'");
        assertInvalid("jmx.map.X = *:type=A | a | scale=-2", "scale must be a positive");
        assertInvalid("jmx.map.X = A + B", "expected");
        assertInvalid("jmx.map.X\\ Y = *:type=A | a", "not a valid metric name");
        assertInvalid("jmx.map.X = *:type=A | a,,b", "empty attribute");
        assertInvalid("jmx.map.X = *:type=A | a+", "empty attribute");
        assertInvalid("jmx.adapter.init = *:type=A", "must be '<ObjectName> | <operation>'");
        assertInvalid("jmx.map.X = *:type=A | a ||", "empty source next to '||'");
        assertInvalid("jmx.map.X = || *:type=A | a", "empty source next to '||'");
        assertInvalid("jmx.map.X = *:type=A | a | max || *:type=B | b", "options go after the last source");
        assertInvalid("jmx.map.X = *:type=A | a / m || *:type=B | b", "must all be ratios");
        assertInvalid("jmx.map.X = *:type=A | a || *:type=B", "missing attribute");
        assertInvalid("jmx.map.X = *:type=A | a || not an object name | b", "invalid ObjectName");
    }

    private static void assertInvalid(String line, String messagePart) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(line));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        InvalidMappingException e = assertThrows(InvalidMappingException.class, () -> JmxMappingParser.parse(p, "file.properties"));
        assertTrue(e.getMessage().contains(messagePart) && e.getMessage().startsWith("file.properties"),
                () -> "message: " + e.getMessage());
    }

    @Test
    void restrictionKeepsDerivedInputs() {
        Properties p = new Properties();
        p.setProperty("jmx.map.A", "*:type=ThreadPool,name=* | maxThreads");
        p.setProperty("jmx.map.B", "*:type=ThreadPool,name=* | maxThreads");
        p.setProperty("jmx.map.C", "*:type=ThreadPool,name=* | maxThreads");
        p.setProperty("jmx.map.R%", "A / B");
        JmxAdapter restricted = JmxMappingParser.parse(p, "t").restrictedTo(Set.of("R%"));
        assertEquals(Set.of("A", "B", "R%"), restricted.metrics());
        assertNull(JmxMappingParser.parse(new Properties(), "t").detect());
    }
}
