package io.loadwise.dispatcher.config;

import static io.loadwise.dispatcher.config.ConfigValidatorTest.config;
import static io.loadwise.dispatcher.config.ConfigValidatorTest.j;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** maxConnections (per node), queueTimeoutMs, maxQueue, retryBudgetPercent and retryOn: read, defaulted, each bad value named. */
class QueueRetryConfigTest {

    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    private static String cluster(String mode, String extra, String nodeExtra) {
        return j("{'name':'web','mode':'" + mode + "','listen':'127.0.0.1:8080','policy':'round-robin'" + extra
                + ",'nodes':[{'name':'a','address':'127.0.0.1:9001'" + nodeExtra + "}]}");
    }

    @Test
    void everyFieldIsReadAndValid() throws Exception {
        LoadwiseConfig c = ConfigLoader.parse(config(cluster("http",
                j(",'queueTimeoutMs':2000,'maxQueue':50,'retryBudgetPercent':10"), j(",'maxConnections':8"))));
        assertEquals(List.of(), validator.validate(c));
        ClusterConfig web = c.clusters().get(0);
        assertEquals(2000, web.queueTimeoutMsOrDefault());
        assertEquals(50, web.maxQueueOrDefault());
        assertEquals(10, web.retryBudgetPercentOrDefault());
        assertEquals(8, web.nodes().get(0).maxConnectionsOrDefault());
    }

    @Test
    void byDefaultNothingQueuesNoNodeIsLimitedAndRetriesHaveA20PercentBudget() throws Exception {
        ClusterConfig web = ConfigLoader.parse(config(cluster("http", "", ""))).clusters().get(0);
        assertEquals(0, web.queueTimeoutMsOrDefault());
        assertEquals(1000, web.maxQueueOrDefault());
        assertEquals(20, web.retryBudgetPercentOrDefault());
        assertEquals(0, web.nodes().get(0).maxConnectionsOrDefault());
        assertEquals(RetryOn.DEFAULT, web.retryOnOrDefault());
        assertEquals("[connect-failure, reset, refused-stream]", web.retryOnOrDefault().toString());
        assertFalse(web.retryOnOrDefault().responseTimeout(), "a timed-out GET may have bought: not retried");
    }

    @Test
    void retryOnIsReadAndAnEmptyListRetriesNothing() throws Exception {
        ClusterConfig web = ConfigLoader.parse(config(cluster("http",
                j(",'retryOn':['reset','response-timeout']"), ""))).clusters().get(0);
        assertEquals(List.of(), validator.validate(ConfigLoader.parse(config(cluster("http",
                j(",'retryOn':['reset','response-timeout']"), "")))));
        RetryOn retryOn = web.retryOnOrDefault();
        assertTrue(retryOn.reset() && retryOn.responseTimeout());
        assertFalse(retryOn.connectFailure() || retryOn.refusedStream());
        RetryOn none = ConfigLoader.parse(config(cluster("http", j(",'retryOn':[]"), ""))).clusters().get(0)
                .retryOnOrDefault();
        assertFalse(none.connectFailure() || none.reset() || none.refusedStream() || none.responseTimeout());
    }

    static Stream<Arguments> bad() {
        return Stream.of(
                Arguments.of("http", ",'queueTimeoutMs':-1", "", "clusters[0].queueTimeoutMs: -1 out of range 0..86400000"),
                Arguments.of("http", ",'maxQueue':0", "", "clusters[0].maxQueue: 0 out of range 1..1000000"),
                Arguments.of("http", ",'retryBudgetPercent':101", "",
                        "clusters[0].retryBudgetPercent: 101 out of range 0..100"),
                Arguments.of("http", "", ",'maxConnections':0",
                        "clusters[0].nodes[0].maxConnections: 0 out of range 1..1000000"),
                Arguments.of("tcp", ",'queueTimeoutMs':100", "",
                        "clusters[0].queueTimeoutMs: only allowed for mode http (it queues HTTP requests)"),
                Arguments.of("tcp", ",'retryBudgetPercent':5", "",
                        "clusters[0].retryBudgetPercent: only allowed for mode http (it retries HTTP requests)"),
                Arguments.of("http", ",'retryOn':['reset','timeout']", "",
                        "clusters[0].retryOn[1]: 'timeout' is not a retry condition (allowed: connect-failure, reset,"
                                + " refused-stream, response-timeout)"),
                Arguments.of("http", ",'retryOn':['Reset']", "",
                        "clusters[0].retryOn[0]: 'Reset' is not a retry condition (allowed: connect-failure, reset,"
                                + " refused-stream, response-timeout)"),
                Arguments.of("http", ",'retryOn':['reset','reset']", "", "clusters[0].retryOn[1]: 'reset' is listed twice"),
                Arguments.of("http", ",'retryOn':[null]", "",
                        "clusters[0].retryOn[0]: null is not a retry condition (allowed: connect-failure, reset,"
                                + " refused-stream, response-timeout)"),
                Arguments.of("tcp", ",'retryOn':['reset']", "",
                        "clusters[0].retryOn: only allowed for mode http (it retries HTTP requests)"),
                Arguments.of("tcp", "", ",'maxConnections':4",
                        "clusters[0].nodes[0].maxConnections: only allowed for mode http (it counts HTTP requests in flight)"));
    }

    @ParameterizedTest
    @MethodSource("bad")
    void aBadValueIsNamed(String mode, String clusterExtra, String nodeExtra, String expected) throws Exception {
        LoadwiseConfig c = ConfigLoader.parse(config(cluster(mode, j(clusterExtra), j(nodeExtra))));
        assertEquals(List.of(expected), validator.validate(c));
    }

    @Test
    void aMisspelledFieldIsNamed() {
        ConfigValidationException e = assertThrows(ConfigValidationException.class,
                () -> ConfigLoader.parse(config(cluster("http", j(",'queueTimeout':100"), ""))));
        assertTrue(e.getMessage().contains("clusters[0].queueTimeout"), e.getMessage());
    }
}
