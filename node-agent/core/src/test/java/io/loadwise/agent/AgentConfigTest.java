package io.loadwise.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.os.OsSources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentConfigTest {

    @TempDir
    Path dir;

    @Test
    void defaultsFollowTheIssue() {
        AgentConfig c = AgentConfig.of(new Properties());
        assertEquals(1000, c.fullIntervalMillis());
        assertEquals(100, c.fastIntervalMillis());
        assertEquals(100, c.headerIntervalMillis());
        assertNull(c.secret());
        assertEquals(OsSources.Mode.AUTO, c.osMode());
        assertEquals("auto", c.jmxAdapter());
    }

    @Test
    void contextParametersOverrideTheConfigFile() throws Exception {
        Path file = dir.resolve("agent.properties");
        Files.writeString(file, "loadwise.agent.secret = fromfile\nloadwise.agent.sample.full.ms = 500\n"
                + "jmx.map.X = *:type=A | a\n");
        AgentConfig c = AgentConfig.load(Map.of(AgentConfig.CONFIG_FILE, file.toString(),
                AgentConfig.SECRET, "fromcontext", AgentConfig.OS_SOURCE, "java"));
        assertEquals("fromcontext", c.secret());
        assertEquals(500, c.fullIntervalMillis());
        assertEquals(OsSources.Mode.JAVA, c.osMode());
        assertEquals("*:type=A | a", c.properties().getProperty("jmx.map.X"));
    }

    @Test
    void invalidValuesAreRejectedWithTheKey() {
        assertInvalid(AgentConfig.FULL_INTERVAL, "0", "must be positive");
        assertInvalid(AgentConfig.FAST_INTERVAL, "-5", "0 (off) or positive");
        assertInvalid(AgentConfig.HEADER_INTERVAL, "-2", "-1 (never)");
        assertInvalid(AgentConfig.HEADER_INTERVAL, "fast", "whole number");
        assertInvalid(AgentConfig.OS_SOURCE, "wmi", "auto, sigar or java");
        assertInvalid(AgentConfig.CAPACITY, "-1", "0 (derive it) or a positive number");
        assertInvalid(AgentConfig.CAPACITY, "lots", "whole number of concurrent requests");
        assertInvalid(AgentConfig.CAPACITY, "3000000000", "too large");
        assertInvalid(AgentConfig.STAND_IN, "yes", "true or false");
        assertInvalid(AgentConfig.HEADER_FORM, "protobuf", "text, json or bin");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AgentConfig.load(Map.of(AgentConfig.CONFIG_FILE, dir.resolve("missing.properties").toString())));
        assertTrue(e.getMessage().contains("missing.properties"), e.getMessage());
    }

    private static void assertInvalid(String key, String value, String messagePart) {
        Properties p = new Properties();
        p.setProperty(key, value);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AgentConfig.of(p));
        assertTrue(e.getMessage().contains(key) && e.getMessage().contains(messagePart), e.getMessage());
    }

    @Test
    void theReadingsTransformIsIdentityUnlessNamedAndAMistakeNamesTheSetting() {
        java.util.Map<String, Double> readings = java.util.Map.of("OS_CPU_USED%", 50.0);
        assertEquals(readings, AgentConfig.of(new Properties()).readingsTransform().apply(readings));
        Properties named = new Properties();
        named.setProperty(AgentConfig.READINGS_TRANSFORM, io.loadwise.agent.sample.DoublingReadings.class.getName());
        assertEquals(java.util.Map.of("OS_CPU_USED%", 100.0), AgentConfig.of(named).readingsTransform().apply(readings));
        Properties missing = new Properties();
        missing.setProperty(AgentConfig.READINGS_TRANSFORM, "no.such.Transform");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AgentConfig.of(missing));
        assertTrue(e.getMessage().startsWith("loadwise.agent.readings.transform: cannot make no.such.Transform"),
                e.getMessage());
        Properties wrongType = new Properties();
        wrongType.setProperty(AgentConfig.READINGS_TRANSFORM, String.class.getName());
        e = assertThrows(IllegalArgumentException.class, () -> AgentConfig.of(wrongType));
        assertEquals("loadwise.agent.readings.transform: java.lang.String is not a java.util.function.UnaryOperator",
                e.getMessage());
    }
}
