package io.loadwise.node.glassfish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AsadminCommandTest {

    @Test
    void propertyListEscapesSeparatorsInsideValues() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("url", "jdbc:h2:tcp://127.0.0.1:9092/mem:x;DB_CLOSE_DELAY=-1");
        properties.put("password", "a\\b");
        assertEquals("url=jdbc\\:h2\\:tcp\\://127.0.0.1\\:9092/mem\\:x;DB_CLOSE_DELAY\\=-1:password=a\\\\b",
                AsadminCommand.propertyList(properties));
    }

    @Test
    void multimodeLineEscapesBackslashesAndQuotesOnceMore() {
        AsadminCommand command = AsadminCommand.of("create-x", "--property", "url=a\\:b", "it's");
        assertEquals("create-x --property url=a\\\\:b it\\'s", command.multimodeLine());
    }

    @Test
    void rejectsTokensThatMultimodeWouldSplit() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AsadminCommand.of("deploy", "/tmp/my app.war"));
        assertTrue(e.getMessage().contains("/tmp/my app.war"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new AsadminCommand(List.of()));
        assertThrows(IllegalArgumentException.class, () -> AsadminCommand.of("set", ""));
    }
}
