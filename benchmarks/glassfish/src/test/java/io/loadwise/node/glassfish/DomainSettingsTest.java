package io.loadwise.node.glassfish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DomainSettingsTest {

    private static final String POOL = "configs.config.server-config.thread-pools.thread-pool.http-thread-pool.";

    @Test
    void workerPoolSetsTheMinimumFirstAndNeverAboveTheMaximum() {
        assertEquals(List.of(
                "set " + POOL + "min-thread-pool-size=3",
                "set " + POOL + "max-thread-pool-size=3",
                "set " + POOL + "max-queue-size=12"), lines(new DomainSettings().httpWorkers(3, 12)));
        assertEquals("set " + POOL + "min-thread-pool-size=5",
                lines(new DomainSettings().httpWorkers(12, 12)).get(0));
    }

    @Test
    void monitoringTurnsOnEveryModuleTheAgentReads() {
        String line = lines(new DomainSettings().monitoring()).get(0);
        for (String module : List.of("http-service", "thread-pool", "web-container", "jdbc-connection-pool", "jvm")) {
            assertTrue(line.contains("module-monitoring-levels." + module + "=HIGH"), line);
        }
    }

    @Test
    void jdbcPoolResourcesKeepAnEmptyPasswordAndEscapeValues() {
        JdbcPoolSettings pool = new JdbcPoolSettings("TradePool", "jdbc/TradeDB",
                "jdbc:h2:tcp://127.0.0.1:9092/mem:t;A=1&B=\"2\"", "sa", "", 10);
        String xml = pool.resourcesXml();
        assertTrue(xml.contains("<property name=\"password\" value=\"\"/>"), xml);
        assertTrue(xml.contains("value=\"jdbc:h2:tcp://127.0.0.1:9092/mem:t;A=1&amp;B=&quot;2&quot;\""), xml);
        assertTrue(xml.contains("max-pool-size=\"10\""), xml);
        assertTrue(xml.contains("<jdbc-resource jndi-name=\"jdbc/TradeDB\" pool-name=\"TradePool\"/>"), xml);
        assertTrue(xml.contains("max-wait-time-in-millis=\"10000\""), "the default wait: " + xml);
        assertTrue(new JdbcPoolSettings("TradePool", "jdbc/TradeDB", "jdbc:h2:tcp://127.0.0.1:9092/t", "sa", "", 5, 250)
                .resourcesXml().contains("max-wait-time-in-millis=\"250\""), "--jdbc-max-wait-ms reaches the pool");
        assertEquals(List.of("add-resources /tmp/r.xml"), lines(new DomainSettings().addResources(Path.of("/tmp/r.xml"))));
    }

    @Test
    void deployNamesTheApplicationAfterItsContextRoot() {
        Path war = Path.of("/tmp/a.war");
        assertEquals(List.of("deploy --contextroot /trade --name trade /tmp/a.war"),
                lines(new DomainSettings().deploy(war, "/trade")));
    }

    @Test
    void rejectsSettingsTheServerCouldNotApply() {
        assertThrows(IllegalArgumentException.class, () -> new DomainSettings().httpWorkers(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new DomainSettings().httpListener("127.0.0.1", 0));
        assertThrows(IllegalArgumentException.class, () -> new DomainSettings().deploy(Path.of("a.war"), "trade"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new JdbcPoolSettings(
                "P", "jdbc/X", "jdbc:postgresql://db/x", "u", "p", 5));
        assertTrue(e.getMessage().contains("only jdbc:h2:"), e.getMessage());
    }

    private static List<String> lines(DomainSettings settings) {
        return settings.multimodeScript().lines().toList();
    }
}
