package io.loadwise.dispatcher.config;

import static io.loadwise.dispatcher.config.ConfigValidatorTest.config;
import static io.loadwise.dispatcher.config.ConfigValidatorTest.j;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** nodes[].drain: true, false or "sessions", written back as read; anything else refused with the field named. */
class DrainConfigTest {

    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    private static String cluster(String nodeExtra) {
        return j("{'name':'web','mode':'http','listen':'127.0.0.1:8080','policy':'round-robin'"
                + ",'nodes':[{'name':'a','address':'127.0.0.1:9001'},{'name':'b','address':'127.0.0.1:9002'"
                + nodeExtra + "}]}");
    }

    static Stream<Arguments> good() {
        return Stream.of(Arguments.of("", DrainMode.NONE), Arguments.of(",'drain':false", DrainMode.NONE),
                Arguments.of(",'drain':null", DrainMode.NONE), // null is "not given", as for every optional field
                Arguments.of(",'drain':true", DrainMode.IMMEDIATE),
                Arguments.of(",'drain':'sessions'", DrainMode.SESSIONS));
    }

    @ParameterizedTest
    @MethodSource("good")
    void theThreeValuesAreReadAndWrittenBackAsGiven(String nodeExtra, DrainMode expected) throws Exception {
        LoadwiseConfig parsed = ConfigLoader.parse(config(cluster(j(nodeExtra))));
        assertEquals(List.of(), validator.validate(parsed));
        ClusterConfig web = parsed.clusters().get(0);
        assertEquals(expected, web.nodes().get(1).drainOrDefault());
        String stored = ConfigLoader.toJson(web);
        assertEquals(web, ConfigLoader.parseCluster(stored));
        if (expected == DrainMode.SESSIONS) {
            assertEquals(true, stored.replace(" ", "").contains("\"drain\":\"sessions\""), stored);
        }
    }

    static Stream<Arguments> bad() {
        String expected = "clusters[0].nodes[1].drain: expected true, false or \"sessions\", got ";
        return Stream.of(Arguments.of(",'drain':'true'", expected + "\"true\""),
                Arguments.of(",'drain':'Sessions'", expected + "\"Sessions\""),
                Arguments.of(",'drain':'immediate'", expected + "\"immediate\""),
                Arguments.of(",'drain':''", expected + "\"\""),
                Arguments.of(",'drain':1", expected + "1"),
                Arguments.of(",'drain':0", expected + "0"),
                Arguments.of(",'drain':['sessions']", expected + "an array"),
                Arguments.of(",'drain':{'mode':'sessions'}", expected + "an object"));
    }

    @ParameterizedTest
    @MethodSource("bad")
    void anythingElseIsRefusedWithTheFieldNamed(String nodeExtra, String expected) {
        List<String> errors;
        try {
            errors = validator.validate(ConfigLoader.parse(config(cluster(j(nodeExtra)))));
        } catch (ConfigValidationException e) {
            errors = e.errors();
        }
        assertEquals(List.of(expected), errors);
    }

    @Test
    void ofRefusesWhatJacksonWouldNotPass() {
        assertEquals("expected true, false or \"sessions\", got 2.5",
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                        () -> DrainMode.of(2.5)).getMessage());
    }
}
