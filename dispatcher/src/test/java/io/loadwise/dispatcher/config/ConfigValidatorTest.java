package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyInput;
import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigValidatorTest {

    private static final String KNOWN = "adaptive, f5-dynamic-ratio, fastest-response-time, jvm-aware, "
            + "jvm-aware-classic, least-connections, least-loaded, least-sessions, orca-wrr, p2c-least-request, "
            + "probed-response-time, random, "
            + "round-robin, rr-to-lc, static-wrr, test-agent, test-first-usable, test-round-robin, "
            + "weighted-least-connections";
    private static final String TCP_CAPABLE = "least-connections, p2c-least-request, random, round-robin, rr-to-lc, "
            + "static-wrr, "
            + "test-first-usable, test-round-robin, weighted-least-connections";
    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    /** JSON with single quotes, for readable tables. */
    static String j(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    static String node(String name, String address) {
        return "{'name':'" + name + "','address':'" + address + "'}";
    }

    static String tcp(String name, String listen, String extra, String nodes) {
        return "{'name':'" + name + "','mode':'tcp','listen':'" + listen + "','policy':'test-round-robin'" + extra
                + ",'nodes':[" + nodes + "]}";
    }

    static String config(String... clusters) {
        return j("{'admin':{'token':'test-token-0123456789'},'clusters':[" + String.join(",", clusters) + "]}");
    }

    static final String N1 = node("n1", "127.0.0.1:9001");
    static final String N2 = node("n2", "127.0.0.1:9002");

    static Stream<Arguments> badConfigs() {
        return Stream.of(
                Arguments.of("port out of range",
                        config(tcp("a", "127.0.0.1:8080", "", N1 + "," + N2 + "," + node("n3", "app3:99999"))),
                        List.of("clusters[0].nodes[2].address: port 99999 out of range")),
                Arguments.of("address without port",
                        config(tcp("a", "127.0.0.1:8080", "", node("n1", "app1"))),
                        List.of("clusters[0].nodes[0].address: 'app1' is not host:port")),
                Arguments.of("missing cluster name",
                        config(j("{'mode':'tcp','listen':'127.0.0.1:8080','policy':'test-round-robin','nodes':[" + N1 + "]}")),
                        List.of("clusters[0].name: missing")),
                Arguments.of("blank node name",
                        config(tcp("a", "127.0.0.1:8080", "", node(" ", "127.0.0.1:9001"))),
                        List.of("clusters[0].nodes[0].name: missing")),
                Arguments.of("duplicate cluster names",
                        config(tcp("a", "127.0.0.1:8080", "", N1), tcp("a", "127.0.0.1:8081", "", N1)),
                        List.of("clusters[1].name: duplicate cluster name 'a' (also clusters[0])")),
                Arguments.of("duplicate node names",
                        config(tcp("a", "127.0.0.1:8080", "", N1 + "," + node("n1", "127.0.0.1:9003"))),
                        List.of("clusters[0].nodes[1].name: duplicate node name 'n1' (also clusters[0].nodes[0])")),
                Arguments.of("duplicate listen ports",
                        config(tcp("a", "127.0.0.1:8080", "", N1), tcp("b", "0.0.0.0:8080", "", N1)),
                        List.of("clusters[1].listen: port 8080 already used by clusters[0].listen")),
                Arguments.of("listen port clashes with the admin console",
                        config(tcp("a", "127.0.0.1:8111", "", N1)),
                        List.of("clusters[0].listen: port 8111 already used by admin.listen")),
                Arguments.of("unknown policy",
                        config(tcp("a", "127.0.0.1:8080", "", N1).replace("test-round-robin", "fastest")),
                        List.of("clusters[0].policy: unknown policy 'fastest', known policies: " + KNOWN)),
                Arguments.of("policy option rejected by the policy",
                        config(j("{'name':'a','mode':'http','listen':'127.0.0.1:8080','policy':'test-agent',"
                                + "'policyOptions':{'threshold':101,'speed':1},'nodes':[" + N1 + "]}")),
                        List.of("clusters[0].policyOptions.speed: unknown option, known: threshold",
                                "clusters[0].policyOptions.threshold: 101.0 out of range 0.0..100.0")),
                Arguments.of("agent policy on a tcp cluster",
                        config(tcp("a", "127.0.0.1:8080", "", N1).replace("test-round-robin", "test-agent")),
                        List.of("clusters[0].policy: 'test-agent' needs node agent metrics, which a tcp cluster does"
                                + " not collect; use mode http or one of: " + TCP_CAPABLE)),
                Arguments.of("jvm-aware on a tcp cluster",
                        config(tcp("a", "127.0.0.1:8080", "", N1).replace("test-round-robin", "jvm-aware")),
                        List.of("clusters[0].policy: 'jvm-aware' needs node agent metrics, which a tcp cluster does"
                                + " not collect; use mode http or one of: " + TCP_CAPABLE)),
                Arguments.of("request-timed policy on a tcp cluster",
                        config(tcp("a", "127.0.0.1:8080", "", N1).replace("test-round-robin", "fastest-response-time")),
                        List.of("clusters[0].policy: 'fastest-response-time' needs HTTP request timings, which a tcp"
                                + " cluster does not collect; use mode http or one of: " + TCP_CAPABLE)),
                Arguments.of("http-only settings on a tcp cluster",
                        config(tcp("a", "127.0.0.1:8080", ",'balance':'per-connection','affinity':'cookie'",
                                j("{'name':'n1','address':'127.0.0.1:9001','route':'r1'}"))),
                        List.of("clusters[0].balance: only allowed for mode http",
                                "clusters[0].affinity: only allowed for mode http",
                                "clusters[0].nodes[0].route: only allowed for mode http")),
                Arguments.of("zero timeouts",
                        config(tcp("a", "127.0.0.1:8080", ",'connectTimeoutMs':0,'idleTimeoutMs':-5", N1)),
                        List.of("clusters[0].connectTimeoutMs: must be greater than 0 (got 0)",
                                "clusters[0].idleTimeoutMs: must be greater than 0 (got -5)")),
                Arguments.of("weights out of range",
                        config(tcp("a", "127.0.0.1:8080", "",
                                j("{'name':'n1','address':'127.0.0.1:9001','weight':0},"
                                        + "{'name':'n2','address':'127.0.0.1:9002','weight':1001}"))),
                        List.of("clusters[0].nodes[0].weight: 0 out of range 1..1000",
                                "clusters[0].nodes[1].weight: 1001 out of range 1..1000")),
                Arguments.of("no nodes",
                        config(tcp("a", "127.0.0.1:8080", "", "")),
                        List.of("clusters[0].nodes: at least one node is required")),
                Arguments.of("missing mode",
                        config(j("{'name':'a','listen':'127.0.0.1:8080','policy':'test-round-robin','nodes':[" + N1 + "]}")),
                        List.of("clusters[0].mode: missing (tcp or http)")),
                Arguments.of("unknown log level",
                        j("{'logging':{'level':'verbose','levels':{'io.netty':'loud'}},'clusters':[]}"),
                        List.of("logging.level: unknown level 'verbose', expected one of trace, debug, info, warn, error, off",
                                "logging.levels.io.netty: unknown level 'loud', expected one of trace, debug, info, warn, error, off")),
                Arguments.of("null option value and null log level",
                        j("{'logging':{'levels':{'io.netty':null}},'clusters':[{'name':'a','mode':'http',"
                                + "'listen':'127.0.0.1:8080','policy':'test-agent','policyOptions':{'threshold':null},"
                                + "'nodes':[" + N1 + "]}]}"),
                        List.of("logging.levels.io.netty: missing level",
                                "clusters[0].policyOptions.threshold: missing value")),
                Arguments.of("agent path without slash",
                        config(j("{'name':'a','mode':'http','listen':'127.0.0.1:8080','policy':'jvm-aware',"
                                + "'agentPath':'metrics','nodes':[" + N1 + "]}")),
                        List.of("clusters[0].agentPath: 'metrics' must start with '/'")),
                Arguments.of("settings a tcp cluster would ignore",
                        config(tcp("a", "127.0.0.1:8080", ",'maxConnectionsPerNode':10,'agentPollIntervalMs':500",
                                j("{'name':'n1','address':'127.0.0.1:9001','agentPath':'/m'}"))),
                        List.of("clusters[0].maxConnectionsPerNode: only allowed for mode http",
                                "clusters[0].agentPollIntervalMs: only allowed for mode http",
                                "clusters[0].nodes[0].agentPath: only allowed for mode http")),
                Arguments.of("no worker threads",
                        j("{'workerThreads':0,'clusters':[]}"),
                        List.of("workerThreads: 0 out of range 1..1024")),
                Arguments.of("more worker threads than any machine has cores",
                        j("{'workerThreads':1025,'clusters':[]}"),
                        List.of("workerThreads: 1025 out of range 1..1024")),
                Arguments.of("an unknown transport",
                        j("{'transport':'uring','clusters':[]}"),
                        List.of("transport: unknown transport 'uring', expected one of auto, io_uring, epoll, nio")),
                Arguments.of("a transport in capitals",
                        j("{'transport':'EPOLL','clusters':[]}"),
                        List.of("transport: unknown transport 'EPOLL', expected one of auto, io_uring, epoll, nio")),
                Arguments.of("admin token shorter than 16 characters",
                        j("{'admin':{'token':'  fifteen-chars--  '},'clusters':[]}"),
                        List.of("admin.token: too short (15 characters); an admin token needs at least 16 characters,"
                                + " for example the output of `openssl rand -hex 24`")));
    }

    @Test
    void aSixteenCharacterAdminTokenIsLongEnough() throws Exception {
        assertEquals(List.of(), validator.validate(ConfigLoader.parse(j("{'admin':{'token':'sixteen-chars-16'},'clusters':[]}"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badConfigs")
    void reportsEveryProblemWithItsPath(String description, String json, List<String> expected) throws Exception {
        assertEquals(expected, validator.validate(ConfigLoader.parse(json)));
    }

    @Test
    void acceptsAValidConfiguration() throws Exception {
        String json = config(tcp("a", "127.0.0.1:8080", ",'idleTimeoutMs':1000", N1 + "," + N2),
                j("{'name':'b','mode':'http','listen':'127.0.0.1:8081','policy':'test-agent',"
                        + "'policyOptions':{'threshold':85},'balance':'per-connection','affinity':'cookie',"
                        + "'nodes':[{'name':'n1','address':'[::1]:9001','weight':2,'route':'jvm1'}]}"));
        assertEquals(List.of(), validator.validate(ConfigLoader.parse(json)));
    }

    @Test
    void workerThreadsFromOneTo1024AreAccepted() throws Exception {
        for (int threads : new int[] {1, 1024}) {
            LoadwiseConfig config = ConfigLoader.parse(j("{'workerThreads':" + threads + ",'clusters':[]}"));
            assertEquals(threads, config.workerThreads());
            assertEquals(List.of(), validator.validate(config));
        }
    }

    @Test
    void everyTransportIsAccepted() throws Exception {
        for (String transport : List.of("auto", "io_uring", "epoll", "nio")) {
            LoadwiseConfig config = ConfigLoader.parse(j("{'transport':'" + transport + "','clusters':[]}"));
            assertEquals(transport, config.transport());
            assertEquals(List.of(), validator.validate(config), transport);
        }
    }

    @Test
    void listenPortZeroNeverClashes() throws Exception {
        String json = config(tcp("a", "127.0.0.1:0", "", N1), tcp("b", "127.0.0.1:0", "", N1));
        assertEquals(List.of(), validator.validate(ConfigLoader.parse(json)));
    }

    /** The validator asks the policy what it reads; it knows no policy by name. */
    @Test
    void aTcpClusterRefusesAnyPolicyThatDeclaresAnInput() {
        assertFalse(ConfigValidator.tcpCapable(policyReading(Set.of(PolicyInput.RESPONSE_TIMES))),
                "a third-party policy timing requests, under an id of its own");
        assertFalse(ConfigValidator.tcpCapable(policyReading(Set.of(PolicyInput.AGENT_METRICS))));
        assertTrue(ConfigValidator.tcpCapable(policyReading(Set.of())));
    }

    @Test
    void namesEveryInputATcpClusterLacks() {
        assertEquals("node agent metrics and HTTP request timings",
                ConfigValidator.describe(Set.of(PolicyInput.RESPONSE_TIMES, PolicyInput.AGENT_METRICS)));
    }

    private static LoadBalancingPolicy policyReading(Set<PolicyInput> inputs) {
        return new LoadBalancingPolicy() {
            @Override
            public String id() {
                return "third-party";
            }

            @Override
            public String description() {
                return "reads " + inputs;
            }

            @Override
            public Set<PolicyInput> inputs() {
                return inputs;
            }

            @Override
            public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
                return avoid -> null;
            }
        };
    }
}
