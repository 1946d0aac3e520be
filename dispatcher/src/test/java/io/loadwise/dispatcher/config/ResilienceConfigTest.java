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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** healthCheck, outlierDetection, slowStartMs and shutdownGraceMs: parsed strictly, each bad value named. */
class ResilienceConfigTest {

    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    private static String http(String extra, String nodeExtra) {
        return j("{'name':'web','mode':'http','listen':'127.0.0.1:8080','policy':'round-robin'" + extra
                + ",'nodes':[{'name':'a','address':'127.0.0.1:9001'" + nodeExtra + "},"
                + "{'name':'b','address':'127.0.0.1:9002'}]}");
    }

    @Test
    void everyFieldIsReadAndValid() throws Exception {
        LoadwiseConfig c = ConfigLoader.parse(j("{'admin':{'token':'test-token-0123456789'},'shutdownGraceMs':2500,"
                + "'clusters':[") + http(j(",'slowStartMs':30000,'healthCheck':{'path':'/health','intervalMs':2000,"
                + "'timeoutMs':1000,'rise':2,'fall':3,'expectStatus':'200-399'},'outlierDetection':{'consecutive5xx':5,"
                + "'consecutiveGatewayFailures':3,'baseEjectionMs':30000,'maxEjectionPercent':50}"),
                j(",'healthCheck':{'path':'/ready','timeoutMs':500}")) + "]}");
        assertEquals(List.of(), validator.validate(c));
        assertEquals(2500, c.shutdownGraceMsOrDefault());
        ClusterConfig web = c.clusters().get(0);
        assertEquals(30_000, web.slowStartMsOrDefault());
        assertEquals(5, web.outlierDetection().consecutive5xxOrDefault());
        assertEquals(300_000, web.outlierDetection().maxEjectionMsOrDefault());
        HealthCheckConfig a = HealthCheckConfig.merge(web.healthCheck(), web.nodes().get(0).healthCheck());
        assertEquals(new HealthCheckConfig("/ready", 2000, 500, 2, 3, "200-399"), a);
        assertEquals(web.healthCheck(), HealthCheckConfig.merge(web.healthCheck(), web.nodes().get(1).healthCheck()));
    }

    @Test
    void defaultsAreOffExceptTheShutdownGrace() throws Exception {
        LoadwiseConfig c = ConfigLoader.parse(config(http("", "")));
        ClusterConfig web = c.clusters().get(0);
        assertEquals(0, web.slowStartMsOrDefault());
        assertEquals(null, web.healthCheck());
        assertEquals(null, web.outlierDetection());
        assertEquals(10_000, c.shutdownGraceMsOrDefault());
        HealthCheckConfig empty = new HealthCheckConfig(null, null, null, null, null, null);
        assertEquals(2000, empty.intervalMsOrDefault());
        assertEquals(1000, empty.timeoutMsOrDefault());
        assertEquals(2, empty.riseOrDefault());
        assertEquals(3, empty.fallOrDefault());
        assertEquals("200-399", empty.expectStatusOrDefault());
    }

    @Test
    void anUnknownHealthCheckFieldIsNamed() {
        ConfigValidationException e = assertThrows(ConfigValidationException.class,
                () -> ConfigLoader.parse(config(http(j(",'healthCheck':{'pth':'/x'}"), ""))));
        assertTrue(e.getMessage().contains("clusters[0].healthCheck.pth"), e.getMessage());
    }

    static Stream<Arguments> bad() {
        return Stream.of(
                Arguments.of(",'healthCheck':{'path':'health'}", "",
                        "clusters[0].healthCheck.path: 'health' must start with '/' and contain no spaces or control characters"),
                Arguments.of(",'healthCheck':{'expectStatus':'200-'}", "",
                        "clusters[0].healthCheck.expectStatus: '200-' is not a status (100-599) or a range of statuses"),
                Arguments.of(",'healthCheck':{'expectStatus':'399-200'}", "",
                        "clusters[0].healthCheck.expectStatus: '399-200' is an empty range"),
                Arguments.of(",'healthCheck':{'rise':0}", "", "clusters[0].healthCheck.rise: 0 out of range 1..100"),
                Arguments.of(",'healthCheck':{'fall':101}", "", "clusters[0].healthCheck.fall: 101 out of range 1..100"),
                Arguments.of(",'healthCheck':{'intervalMs':500,'timeoutMs':800}", "",
                        "clusters[0].healthCheck.timeoutMs: 800 is longer than intervalMs 500"),
                Arguments.of(",'healthCheck':{'intervalMs':500,'timeoutMs':400}", ",'healthCheck':{'timeoutMs':800}",
                        "clusters[0].nodes[0].healthCheck.timeoutMs: 800 is longer than intervalMs 500"),
                Arguments.of("", ",'healthCheck':{'intervalMs':5,'timeoutMs':1}",
                        "clusters[0].nodes[0].healthCheck.intervalMs: 5 out of range 10..86400000"),
                Arguments.of(",'slowStartMs':-1", "", "clusters[0].slowStartMs: -1 out of range 0..86400000"),
                Arguments.of(",'outlierDetection':{'maxEjectionPercent':101}", "",
                        "clusters[0].outlierDetection.maxEjectionPercent: 101 out of range 0..100"),
                Arguments.of(",'outlierDetection':{'baseEjectionMs':0}", "",
                        "clusters[0].outlierDetection.baseEjectionMs: 0 out of range 1..86400000"),
                Arguments.of(",'outlierDetection':{'consecutive5xx':-1}", "",
                        "clusters[0].outlierDetection.consecutive5xx: -1 out of range 0..10000"),
                Arguments.of(",'outlierDetection':{'baseEjectionMs':60000,'maxEjectionMs':1000}", "",
                        "clusters[0].outlierDetection.maxEjectionMs: 1000 is shorter than baseEjectionMs 60000"));
    }

    @ParameterizedTest
    @MethodSource("bad")
    void aBadValueIsNamed(String clusterExtra, String nodeExtra, String expected) throws Exception {
        LoadwiseConfig c = ConfigLoader.parse(config(http(j(clusterExtra), j(nodeExtra))));
        assertEquals(List.of(expected), validator.validate(c));
    }

    @Test
    void outlierDetectionIsForHttpClustersOnly() throws Exception {
        LoadwiseConfig c = ConfigLoader.parse(config(j("{'name':'t','mode':'tcp','listen':'127.0.0.1:8080',"
                + "'policy':'round-robin','outlierDetection':{},'healthCheck':{},"
                + "'nodes':[{'name':'a','address':'127.0.0.1:9001'}]}")));
        assertEquals(List.of("clusters[0].outlierDetection: only allowed for mode http (it judges HTTP answers)"),
                validator.validate(c));
    }

    @Test
    void aNegativeShutdownGraceIsNamed() throws Exception {
        LoadwiseConfig c = ConfigLoader.parse(j("{'admin':{'token':'test-token-0123456789'},'shutdownGraceMs':-5,"
                + "'clusters':[") + http("", "") + "]}");
        assertEquals(List.of("shutdownGraceMs: -5 out of range 0..86400000"), validator.validate(c));
    }

    @Test
    void statusRangesAcceptRangesAndSingleCodes() {
        StatusRanges r = StatusRanges.parse("200-299, 304,401");
        assertTrue(r.contains(200) && r.contains(299) && r.contains(304) && r.contains(401));
        assertFalse(r.contains(199) || r.contains(300) || r.contains(500));
        assertThrows(IllegalArgumentException.class, () -> StatusRanges.parse(""));
        assertThrows(IllegalArgumentException.class, () -> StatusRanges.parse("600"));
        assertThrows(IllegalArgumentException.class, () -> StatusRanges.parse("2oo"));
        assertThrows(IllegalArgumentException.class, () -> StatusRanges.parse("200,,300"));
    }
}
