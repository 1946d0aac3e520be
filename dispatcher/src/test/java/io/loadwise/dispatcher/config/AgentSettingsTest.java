package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.PolicyRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code "agent": {"secret": …}} of a cluster, and {@code LOADWISE_AGENT_SECRET} (issue 18, item 1). */
class AgentSettingsTest {

    private static final String SECRET = "Zq7-agents-only";
    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    private static String config(String mode, String agent) {
        return ("{'admin': {'token': 'test-token-0123456789'}, 'clusters': [{'name': 'web', 'mode': '" + mode
                + "', 'listen': '127.0.0.1:0', 'policy': 'round-robin', 'nodes': [{'name': 'a', 'address': "
                + "'127.0.0.1:9001'}], 'agent': " + agent + "}]}").replace('\'', '"');
    }

    @Test
    void theSecretIsReadKeptInTheFileAndNeverPrinted(@TempDir Path dir) throws Exception {
        LoadwiseConfig config = ConfigLoader.parse(config("http", "{'secret': '" + SECRET + "'}"));
        ClusterConfig web = config.clustersOrEmpty().get(0);
        assertEquals(SECRET, AgentSettings.secretOf(web));
        assertEquals(List.of(), validator.validate(config));

        Path file = dir.resolve("loadwise.json");
        new ConfigStore(file).write(config);
        assertTrue(Files.readString(file).contains("\"secret\" : \"" + SECRET + "\""), "written back as it was");
        assertEquals(config, ConfigLoader.load(file));

        assertFalse(web.toString().contains(SECRET), web.toString());
        assertFalse(config.toString().contains(SECRET));
        assertEquals("AgentSettings[secret=(hidden)]", web.agent().toString());
    }

    @Test
    void anAgentObjectWithoutASecretIsAllowedAndUnknownFieldsAreNot() throws Exception {
        ClusterConfig web = ConfigLoader.parse(config("http", "{}")).clustersOrEmpty().get(0);
        assertNull(AgentSettings.secretOf(web));
        ConfigValidationException e = assertThrows(ConfigValidationException.class,
                () -> ConfigLoader.parse(config("http", "{'secrets': 'x'}")));
        assertEquals(List.of("clusters[0].agent.secrets: unknown field"), e.errors());
        e = assertThrows(ConfigValidationException.class, () -> ConfigLoader.parse(config("http", "'s3cret'")));
        assertEquals(1, e.errors().size());
        assertTrue(e.errors().get(0).startsWith("clusters[0].agent"), e.errors().toString());
        e = assertThrows(ConfigValidationException.class, () -> ConfigLoader.parse(config("http", "{'secret': ['a', 'b']}")));
        assertEquals(List.of("clusters[0].agent.secret: expected string"), e.errors());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "empty        | ''                  | blank; leave the secret out when the agents have none",
        "spaces       | '   '               | blank; leave the secret out when the agents have none",
        "inner space  | 'two words'         | character 4 is not allowed: a secret is sent in an HTTP header, so it may hold only visible ASCII characters (letters, digits, punctuation; no spaces or control characters)",
        "newline      | 'line\\nbreak'      | character 5 is not allowed: a secret is sent in an HTTP header, so it may hold only visible ASCII characters (letters, digits, punctuation; no spaces or control characters)",
        "non-ASCII    | 'caf\u00e9-secret'  | character 4 is not allowed: a secret is sent in an HTTP header, so it may hold only visible ASCII characters (letters, digits, punctuation; no spaces or control characters)",
        "masked copy  | '(hidden)'          | '(hidden)' is what the API shows in place of a secret, not a secret; give the real one"})
    void aSecretThatCannotBeSentIsRefusedWithoutRepeatingIt(String what, String secret, String problem)
            throws Exception {
        LoadwiseConfig config = ConfigLoader.parse(config("http", "{'secret': '" + secret + "'}"));
        List<String> errors = validator.validate(config);
        assertEquals(List.of("clusters[0].agent.secret: " + problem), errors);
    }

    @Test
    void aVeryLongSecretIsRefused() throws Exception {
        LoadwiseConfig config = ConfigLoader.parse(config("http", "{'secret': '" + "k".repeat(1025) + "'}"));
        assertEquals(List.of("clusters[0].agent.secret: too long (1025 characters, at most 1024)"),
                validator.validate(config));
        assertEquals(List.of(), validator.validate(ConfigLoader.parse(
                config("http", "{'secret': '" + "k".repeat(1024) + "'}"))));
    }

    @Test
    void tcpClustersHaveNoAgents() throws Exception {
        assertEquals(List.of("clusters[0].agent: only allowed for mode http"),
                validator.validate(ConfigLoader.parse(config("tcp", "{'secret': '" + SECRET + "'}"))));
    }

    @Test
    void theEnvironmentVariableIsStrippedAndCheckedLikeTheFile() throws Exception {
        assertEquals(SECRET, AgentSettings.secretFromEnv(Map.of(AgentSettings.SECRET_ENV, SECRET + "\n")));
        assertNull(AgentSettings.secretFromEnv(Map.of()));
        assertNull(AgentSettings.secretFromEnv(Map.of(AgentSettings.SECRET_ENV, " \t\n")));
        for (String garbage : new String[] {"tab\there", "nul\u0000", "esc\u001b[31m", "\u00ff\u00fe", "emoji\ud83d\ude00",
            "CR\rLF\n-injected: header", "x".repeat(5000)}) {
            ConfigValidationException e = assertThrows(ConfigValidationException.class,
                    () -> AgentSettings.secretFromEnv(Map.of(AgentSettings.SECRET_ENV, garbage)), garbage);
            assertEquals(1, e.errors().size());
            String message = e.errors().get(0);
            assertTrue(message.startsWith("LOADWISE_AGENT_SECRET: "), message);
            assertFalse(message.contains(garbage.strip()), "the message repeats the secret: " + message);
        }
    }
}
