package io.loadwise.dispatcher.config;

import static io.loadwise.dispatcher.config.ConfigValidatorTest.config;
import static io.loadwise.dispatcher.config.ConfigValidatorTest.j;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** nodes[].priority and backup, clusters[].minActive and panicThresholdPercent: read, defaulted, each bad value named. */
class GroupConfigTest {

    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    private static String cluster(String extra, String secondNode) {
        return j("{'name':'web','mode':'http','listen':'127.0.0.1:8080','policy':'round-robin'" + extra
                + ",'nodes':[{'name':'a','address':'127.0.0.1:9001'},{'name':'b','address':'127.0.0.1:9002'"
                + secondNode + "}]}");
    }

    @Test
    void everyFieldIsReadAndValid() throws Exception {
        LoadwiseConfig c = ConfigLoader.parse(config(cluster(j(",'minActive':2,'panicThresholdPercent':30"),
                j(",'priority':3"))));
        assertEquals(List.of(), validator.validate(c));
        ClusterConfig web = c.clusters().get(0);
        assertEquals(2, web.minActiveOrDefault());
        assertEquals(30, web.panicThresholdPercentOrDefault());
        assertEquals(3, web.nodes().get(1).priorityOrDefault());
        ClusterConfig backup = ConfigLoader.parse(config(cluster("", j(",'backup':true")))).clusters().get(0);
        assertTrue(backup.nodes().get(1).backupOrDefault());
    }

    /** The example under "Priority groups, backup nodes and panic" in docs/configuration.md is valid as written. */
    @Test
    void theDocumentedExampleIsValid() throws Exception {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "configuration.md"));
        int section = doc.indexOf("### Priority groups, backup nodes and panic");
        int start = doc.indexOf("```json fragment\n", section) + "```json fragment\n".length(); // a cluster alone
        String example = doc.substring(start, doc.indexOf("```", start));
        LoadwiseConfig c = ConfigLoader.parse(config(example.replace('"', '\'')));
        assertEquals(List.of(), validator.validate(c));
        assertTrue(c.clusters().get(0).nodes().get(2).backupOrDefault());
    }

    @Test
    void byDefaultOneGroupMinActive1AndPanicBelowHalf() throws Exception {
        ClusterConfig web = ConfigLoader.parse(config(cluster("", ""))).clusters().get(0);
        assertEquals(1, web.minActiveOrDefault());
        assertEquals(50, web.panicThresholdPercentOrDefault());
        assertEquals(0, web.nodes().get(1).priorityOrDefault());
        assertFalse(web.nodes().get(1).backupOrDefault());
    }

    /** The etcd store keeps each cluster as ConfigLoader.toJson and reads it back with parseCluster. */
    @Test
    void theFieldsSurviveTheStoresRoundTrip() throws Exception {
        ClusterConfig web = ConfigLoader.parse(config(cluster(j(",'minActive':2,'panicThresholdPercent':0"),
                j(",'backup':true")))).clusters().get(0);
        String stored = ConfigLoader.toJson(web);
        assertTrue(stored.contains("\"backup\" : true") && stored.contains("\"minActive\" : 2"), stored);
        assertEquals(web, ConfigLoader.parseCluster(stored));
    }

    /** As for every integer field, the parser reads a quoted number as the number (Jackson's default). */
    @Test
    void aQuotedPriorityIsReadAsItsNumber() throws Exception {
        LoadwiseConfig c = ConfigLoader.parse(config(cluster("", j(",'priority':'1'"))));
        assertEquals(List.of(), validator.validate(c));
        assertEquals(1, c.clusters().get(0).nodes().get(1).priorityOrDefault());
    }

    /** Out of range and inconsistent (the validator's messages), then of the wrong type (the parser's). */
    static Stream<Arguments> bad() {
        return Stream.of(
                Arguments.of("", ",'priority':-1", "clusters[0].nodes[1].priority: -1 out of range 0..65535"),
                Arguments.of("", ",'priority':65536", "clusters[0].nodes[1].priority: 65536 out of range 0..65535"),
                Arguments.of("", ",'backup':true,'priority':0", "clusters[0].nodes[1].priority: a backup node has no"
                        + " priority (the backup group is below every priority)"),
                Arguments.of(",'minActive':0", "", "clusters[0].minActive: 0 out of range 1..10000"),
                Arguments.of(",'minActive':-3", "", "clusters[0].minActive: -3 out of range 1..10000"),
                Arguments.of(",'panicThresholdPercent':101", "",
                        "clusters[0].panicThresholdPercent: 101 out of range 0..100"),
                Arguments.of(",'panicThresholdPercent':-1", "",
                        "clusters[0].panicThresholdPercent: -1 out of range 0..100"),
                Arguments.of("", ",'priority':1.5", "clusters[0].nodes[1].priority: '1.5' is not a valid integer"),
                Arguments.of("", ",'priority':'high'", "clusters[0].nodes[1].priority: 'high' is not a valid integer"),
                Arguments.of("", ",'priority':99999999999", "clusters[0].nodes[1].priority: Numeric value"
                        + " (99999999999) out of range of int (-2147483648 - 2147483647)"),
                Arguments.of("", ",'priority':true", "clusters[0].nodes[1].priority: expected integer"),
                Arguments.of("", ",'backup':'yes'",
                        "clusters[0].nodes[1].backup: 'yes' is not a valid boolean (true or false)"),
                Arguments.of("", ",'backup':1", "clusters[0].nodes[1].backup: '1' is not a valid boolean (true or false)"),
                Arguments.of(",'minActive':2.5", "", "clusters[0].minActive: '2.5' is not a valid integer"),
                Arguments.of(",'minActive':[1]", "", "clusters[0].minActive: expected integer"),
                Arguments.of(",'panicThresholdPercent':'50%'", "",
                        "clusters[0].panicThresholdPercent: '50%' is not a valid integer"),
                Arguments.of(",'panicThreshold':50", "", "clusters[0].panicThreshold: unknown field"));
    }

    @ParameterizedTest
    @MethodSource("bad")
    void aBadValueIsNamed(String clusterExtra, String nodeExtra, String expected) {
        assertEquals(List.of(expected), errorsOf(config(cluster(j(clusterExtra), j(nodeExtra)))));
    }

    /** What the parser refuses, or else what the validator finds. */
    private List<String> errorsOf(String json) {
        try {
            return validator.validate(ConfigLoader.parse(json));
        } catch (ConfigValidationException e) {
            return e.errors();
        }
    }
}
