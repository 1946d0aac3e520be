package io.loadwise.node.glassfish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.jmx.JmxAdapter;
import io.loadwise.agent.jmx.JmxMappingParser;
import java.io.StringReader;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class AgentMappingPinsTest {

    @Test
    void theAgentParsesThePinsAndTheyNameOnlyTheProvisionedListenerAndPool() throws Exception {
        String text = AgentMappingPins.properties("http-listener-1", "TradePool");
        Properties properties = new Properties();
        properties.load(new StringReader(text));

        JmxAdapter pins = JmxMappingParser.parse(properties, "pins");

        assertEquals(AgentMappingPins.mappings("http-listener-1", "TradePool").keySet(), pins.metrics());
        assertTrue(properties.getProperty("jmx.map.AMX_CONNS_Q_THRBSY%")
                .startsWith("amx:type=thread-pool-mon,name=network/http-listener-1/thread-pool,*"), text);
        assertEquals("amx:type=jdbc-connection-pool,name=TradePool,* | MaxPoolSize",
                properties.getProperty("jmx.map.AMX_JDBC_MAXC"));
        assertEquals("amx:type=request-mon,name=http-service/server/request,* | countrequests",
                properties.getProperty("jmx.map.AMX_RQST_TOTAL"));
        assertTrue(!text.contains("*/") && !text.contains("-*,"), "no wildcard listener or pool: " + text);
    }
}
