package io.loadwise.agent.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.metric.MetricSink;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.apache.tomcat.dbcp.dbcp2.BasicDataSource;
import org.junit.jupiter.api.Test;

/**
 * {@code AMX_JDBC_WAIT}, the threads waiting for a JDBC connection, read by the built-in adapters: from a real
 * DBCP2 pool (Tomcat's default factory, the trade app's) against an embedded H2 database, registered under the
 * name Tomcat gives a container-managed DataSource; from MBeans of the shape HikariCP and GlassFish register.
 * A pool that does not report waiters leaves the metric absent, never 0.
 */
class JdbcWaitersTest {

    private static final String WAIT = "AMX_JDBC_WAIT";

    private static Map<String, Double> sample(MBeanServer server, String adapter) {
        JmxAdapterChoice choice = new JmxAdapterChoice(List.of(JmxAdapters.builtIn(adapter)), false,
                JmxMappingParser.parse(new Properties(), "none"), Set.of());
        MetricSink sink = new MetricSink();
        new JmxMappingSource(server, choice, null, false).collect(sink);
        return sink.values();
    }

    private static Map<String, Double> pollUntil(MBeanServer server, Predicate<Map<String, Double>> done) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Map<String, Double> m = sample(server, "tomcat");
        while (!done.test(m)) {
            assertTrue(System.nanoTime() < deadline, "never reached: " + m);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // poll interval
            m = sample(server, "tomcat");
        }
        return m;
    }

    @Test
    void aRealDbcpPoolReportsItsWaitingThreads() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        BasicDataSource pool = new BasicDataSource();
        pool.setDriverClassName("org.h2.Driver");
        pool.setUrl("jdbc:h2:mem:" + getClass().getSimpleName() + ";DB_CLOSE_DELAY=-1");
        pool.setUsername("sa");
        pool.setMaxTotal(1);
        pool.setMaxWait(Duration.ofSeconds(30));
        // the name Tomcat's NamingContextListener registers a context's DataSource under
        pool.setJmxName("Catalina:type=DataSource,host=localhost,context=/waiters,class=javax.sql.DataSource,"
                + "name=\"jdbc/WaitersDB\"");
        CompletableFuture<Void> waiter = null;
        try (Connection held = pool.getConnection()) {
            assertTrue(held.isValid(1));
            Map<String, Double> idle = sample(server, "tomcat");
            assertEquals(0.0, idle.get(WAIT), "a pool that reports waiters and has none: 0, " + idle);
            waiter = CompletableFuture.runAsync(() -> {
                try (Connection c = pool.getConnection()) {
                    c.isValid(1);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Map<String, Double> waiting = pollUntil(server, m -> m.getOrDefault(WAIT, 0.0) >= 1);
            assertEquals(1.0, waiting.get(WAIT), "one thread waits for the pool's only connection");
        }
        waiter.get(10, TimeUnit.SECONDS);
        assertEquals(0.0, pollUntil(server, m -> m.getOrDefault(WAIT, -1.0) == 0).get(WAIT));
        pool.close();
        assertFalse(sample(server, "tomcat").containsKey(WAIT), "no pool registered: absent");
    }

    @Test
    void hikariAndTomcatJdbcPoolsAreReadFromTheirAttributesAndAPoolWithoutOneIsAbsent() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        // a DataSource MBean that counts no waiters (DBCP2's own lacks NumWaiters): absent, not 0
        server.registerMBean(new AttributeBean(Map.of("numActive", 2, "maxTotal", 8)),
                new ObjectName("Catalina:type=DataSource,host=localhost,context=/a,class=javax.sql.DataSource,name=\"jdbc/A\""));
        assertFalse(sample(server, "tomcat").containsKey(WAIT));
        // the tomcat-jdbc pool's DataSource, as Tomcat registers it (waitCount), and a HikariCP pool (registerMbeans)
        server.registerMBean(new AttributeBean(Map.of("active", 4, "maxActive", 4, "waitCount", 3)),
                new ObjectName("Catalina:type=DataSource,host=localhost,context=/b,class=javax.sql.DataSource,name=\"jdbc/B\""));
        server.registerMBean(new AttributeBean(Map.of("ThreadsAwaitingConnection", 2, "ActiveConnections", 10)),
                new ObjectName("com.zaxxer.hikari:type=Pool (HikariPool-1)"));
        assertEquals(5.0, sample(server, "tomcat").get(WAIT), "3 in tomcat-jdbc, 2 in HikariCP");
    }

    @Test
    void glassFishReadsTheWaitQueueOfItsPoolMonitoring() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        server.registerMBean(new AttributeBean(Map.of("MaxPoolSize", "32")),
                new ObjectName("amx:pp=/domain/resources,type=jdbc-connection-pool,name=AppPool"));
        assertFalse(sample(server, "glassfish").containsKey(WAIT), "monitoring off: absent");
        javax.management.openmbean.CompositeType count = new javax.management.openmbean.CompositeType("CountStatistic",
                "CountStatistic", new String[] {"count", "name"}, new String[] {"count", "name"},
                new javax.management.openmbean.OpenType<?>[] {
                    javax.management.openmbean.SimpleType.LONG, javax.management.openmbean.SimpleType.STRING});
        server.registerMBean(new AttributeBean(Map.of(
                "waitqueuelength", new javax.management.openmbean.CompositeDataSupport(count,
                        new String[] {"count", "name"}, new Object[] {6L, "WaitQueueLength"}),
                "numconnused", new javax.management.openmbean.CompositeDataSupport(count,
                        new String[] {"count", "name"}, new Object[] {32L, "NumConnUsed"}))),
                new ObjectName("amx:pp=/mon/server-mon[server],type=jdbc-connection-pool-mon,name=resources/AppPool"));
        assertEquals(6.0, sample(server, "glassfish").get(WAIT));
    }
}
