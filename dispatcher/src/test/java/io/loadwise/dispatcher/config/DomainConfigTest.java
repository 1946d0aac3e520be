package io.loadwise.dispatcher.config;

import static io.loadwise.dispatcher.config.ConfigValidatorTest.config;
import static io.loadwise.dispatcher.config.ConfigValidatorTest.j;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** nodes[].domain (replication domains, issue 32): read, optional, round-tripped, each bad value named. */
class DomainConfigTest {

    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    private static String cluster(String mode, String secondNode) {
        return j("{'name':'web','mode':'" + mode + "','listen':'127.0.0.1:8080','policy':'round-robin'"
                + ",'nodes':[{'name':'a','address':'127.0.0.1:9001','domain':'east'},{'name':'b','address':"
                + "'127.0.0.1:9002'" + secondNode + "}]}");
    }

    @Test
    void aDomainIsReadAndOptional() throws Exception {
        LoadwiseConfig c = ConfigLoader.parse(config(cluster("http", j(",'domain':'rack-2.east_1'"))));
        assertEquals(List.of(), validator.validate(c));
        assertEquals("east", c.clusters().get(0).nodes().get(0).domain());
        assertEquals("rack-2.east_1", c.clusters().get(0).nodes().get(1).domain());
        assertNull(ConfigLoader.parse(config(cluster("http", ""))).clusters().get(0).nodes().get(1).domain());
        String longest = "d".repeat(NodeConfig.MAX_DOMAIN_LENGTH);
        assertEquals(List.of(), validator.validate(ConfigLoader.parse(config(cluster("http",
                j(",'domain':'" + longest + "'"))))));
    }

    /** The etcd store keeps each cluster as ConfigLoader.toJson and reads it back with parseCluster. */
    @Test
    void theDomainSurvivesTheStoresRoundTrip() throws Exception {
        ClusterConfig web = ConfigLoader.parse(config(cluster("http", j(",'domain':'west'")))).clusters().get(0);
        String stored = ConfigLoader.toJson(web);
        assertTrue(stored.contains("\"domain\" : \"west\""), stored);
        assertEquals(web, ConfigLoader.parseCluster(stored));
    }

    /** The example under "Replication domains" in docs/configuration.md is valid as written. */
    @Test
    void theDocumentedExampleIsValid() throws Exception {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "configuration.md"));
        int section = doc.indexOf("### Replication domains");
        int start = doc.indexOf("```json fragment\n", section) + "```json fragment\n".length(); // a cluster alone
        String example = doc.substring(start, doc.indexOf("```", start));
        LoadwiseConfig c = ConfigLoader.parse(config(example.replace('"', '\'')));
        assertEquals(List.of(), validator.validate(c));
        assertEquals("east", c.clusters().get(0).nodes().get(1).domain());
    }

    static Stream<Arguments> bad() {
        String tooLong = "d".repeat(NodeConfig.MAX_DOMAIN_LENGTH + 1);
        String characters = "may contain only letters, digits, '.', '_' and '-', and must start with a letter or digit";
        return Stream.of(
                Arguments.of("http", ",'domain':''",
                        "clusters[0].nodes[1].domain: must not be blank (leave it out for a node in no domain)"),
                Arguments.of("http", ",'domain':'   '",
                        "clusters[0].nodes[1].domain: must not be blank (leave it out for a node in no domain)"),
                Arguments.of("http", ",'domain':'" + tooLong + "'",
                        "clusters[0].nodes[1].domain: 65 characters, at most 64"),
                Arguments.of("http", ",'domain':'east west'", "clusters[0].nodes[1].domain: 'east west' " + characters),
                Arguments.of("http", ",'domain':'-east'", "clusters[0].nodes[1].domain: '-east' " + characters),
                Arguments.of("http", ",'domain':'ost/1'", "clusters[0].nodes[1].domain: 'ost/1' " + characters),
                Arguments.of("http", ",'domain':'\u00e9st'", "clusters[0].nodes[1].domain: '\u00e9st' " + characters),
                Arguments.of("tcp", ",'domain':'east'",
                        "clusters[0].nodes[1].domain: only for http clusters (a domain steers requests pinned by"
                                + " session affinity)"));
    }

    @ParameterizedTest
    @MethodSource("bad")
    void aBadDomainIsNamed(String mode, String nodeExtra, String expected) {
        List<String> errors = errorsOf(config(cluster(mode, j(nodeExtra))));
        if (mode.equals("tcp")) {
            // node a's domain is refused too: only the second node's message is checked here
            assertTrue(errors.contains(expected), errors.toString());
        } else {
            assertEquals(List.of(expected), errors);
        }
    }

    private List<String> errorsOf(String json) {
        try {
            return validator.validate(ConfigLoader.parse(json));
        } catch (ConfigValidationException e) {
            return e.errors();
        }
    }
}
