package io.loadwise.agent.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.loadwise.agent.AgentConfig;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class RegistrationSettingsTest {

    private static final ServerFacts TOMCAT = facts("jvm7", 8081);

    private static ServerFacts facts(String route, int port) {
        return new ServerFacts() {
            @Override
            public String route() {
                return route;
            }

            @Override
            public int httpPort() {
                return port;
            }

            @Override
            public String host() {
                return "10.0.0.7";
            }
        };
    }

    private static AgentConfig config(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return AgentConfig.of(p);
    }

    @Test
    void withoutRegisterTheNodeDoesNotRegister() {
        assertNull(RegistrationSettings.from(config(), "/app", TOMCAT));
    }

    @Test
    void routeAddressNameAndContextFromTheServer() {
        RegistrationSettings s = RegistrationSettings.from(config("loadwise.agent.register", "http://lb:8111/",
                "loadwise.agent.cluster", "web", "loadwise.agent.register.token", "reg-token-0123456789"), "/trade",
                TOMCAT);
        assertEquals("http://lb:8111", s.admin().toString());
        assertEquals("jvm7", s.route());
        assertEquals("jvm7", s.name());
        assertEquals("10.0.0.7:8081", s.address());
        assertEquals(List.of("/trade"), s.contexts());
        assertEquals(5_000, s.heartbeatMillis());
        assertEquals("{\"name\":\"jvm7\",\"address\":\"10.0.0.7:8081\",\"route\":\"jvm7\",\"contexts\":[\"/trade\"]}",
                s.json());
    }

    @Test
    void settingsWinOverTheServerAndTheRootContextIsSlash() {
        RegistrationSettings s = RegistrationSettings.from(config("loadwise.agent.register", "https://lb:8111",
                "loadwise.agent.cluster", "web", "loadwise.agent.register.token", "reg-token-0123456789",
                "loadwise.agent.name", "n1", "loadwise.agent.address", "10.1.1.1:9000", "loadwise.agent.route", "r1",
                "loadwise.agent.contexts", "/extra, /", "loadwise.agent.heartbeat.ms", "2000"), "", facts(null, 0));
        assertEquals("n1", s.name());
        assertEquals("10.1.1.1:9000", s.address());
        assertEquals("r1", s.route());
        assertEquals(List.of("/", "/extra"), s.contexts());
        assertEquals(2_000, s.heartbeatMillis());
    }

    @Test
    void withoutARouteTheNameComesFromTheAddress() {
        RegistrationSettings s = RegistrationSettings.from(config("loadwise.agent.register", "http://lb:8111",
                "loadwise.agent.cluster", "web", "loadwise.agent.register.token", "reg-token-0123456789"), "/a",
                facts(null, 8080));
        assertEquals("10.0.0.7-8080", s.name());
        assertNull(s.route());
        assertEquals("{\"name\":\"10.0.0.7-8080\",\"address\":\"10.0.0.7:8080\",\"contexts\":[\"/a\"]}", s.json());
    }

    @Test
    void mistakesNameTheirSetting() {
        assertEquals("loadwise.agent.register: 'ftp://lb' must be an http:// or https:// URL of the dispatcher's "
                + "admin endpoint", message(config("loadwise.agent.register", "ftp://lb")));
        assertEquals("loadwise.agent.cluster: missing (needed with loadwise.agent.register)",
                message(config("loadwise.agent.register", "http://lb:8111")));
        assertEquals("loadwise.agent.heartbeat.ms must be a whole number of milliseconds, got 'soon'",
                message(config("loadwise.agent.register", "http://lb:8111", "loadwise.agent.cluster", "web",
                        "loadwise.agent.register.token", "reg-token-0123456789", "loadwise.agent.heartbeat.ms", "soon")));
    }

    @Test
    void theAddressWaitsForTheServersPort() {
        RegistrationSettings early = RegistrationSettings.from(config("loadwise.agent.register", "http://lb:8111",
                "loadwise.agent.cluster", "web", "loadwise.agent.register.token", "reg-token-0123456789",
                "loadwise.agent.host", "10.2.2.2"), "/a", facts(null, 0));
        assertFalse(early.resolved(), "the connector has not started yet");
        assertSame(early, early.resolve(facts(null, 0)));
        RegistrationSettings later = early.resolve(facts(null, 8443));
        assertEquals("10.2.2.2:8443", later.address());
        assertEquals("10.2.2.2-8443", later.name());
    }

    private static String message(AgentConfig config) {
        return assertThrows(IllegalArgumentException.class, () -> RegistrationSettings.from(config, "/a", TOMCAT))
                .getMessage();
    }

    @Test
    void jsonEscapes() {
        assertEquals("\"a\\\"b\\\\c\\u0001\"", RegistrationSettings.quote("a\"b\\c\u0001"));
    }
}
