package io.loadwise.dispatcher.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.policy.PolicyRegistry;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code registration}, node {@code contexts} and {@code admin.registrationToken}: each mistake named by its field. */
class RegistrationConfigTest {

    private final ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());

    private static String j(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    private static String http(String extra, String nodes) {
        return j("{'admin':{'token':'test-token-0123456789'},'clusters':[{'name':'web','mode':'http',"
                + "'listen':'127.0.0.1:8080','policy':'round-robin'" + extra + ",'nodes':[" + nodes + "]}]}");
    }

    private static final String ON = ",'registration':{'enabled':true,'allowedNetworks':['10.0.0.0/8']}";
    private static final String N1 = "{'name':'n1','address':'10.0.0.1:8080'}";

    static Stream<Arguments> good() {
        return Stream.of(
                Arguments.of("registration on, no configured node", http(ON, "")),
                Arguments.of("configured node with contexts", http(ON,
                        "{'name':'n1','address':'10.0.0.1:8080','contexts':['/app','/','/shop/api-v2']}")),
                Arguments.of("all fields", http(",'registration':{'enabled':true,'allowedNetworks':['10.0.0.0/8',"
                        + "'fd00::/8'],'ttlMs':1000,'maxNodes':1024}", N1)),
                Arguments.of("registration off needs no networks", http(",'registration':{'enabled':false}", N1)),
                Arguments.of("a registration token", j("{'admin':{'token':'test-token-0123456789',"
                        + "'registrationToken':'reg-token-0123456789'},'clusters':[]}")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("good")
    void accepted(String what, String json) throws Exception {
        assertEquals(List.of(), validator.validate(ConfigLoader.parse(json)));
    }

    static Stream<Arguments> bad() {
        return Stream.of(
                Arguments.of("enabled without networks", http(",'registration':{'enabled':true}", ""),
                        List.of("clusters[0].registration.allowedNetworks: required when registration is enabled "
                                + "(CIDR blocks such as 10.0.0.0/8 that registered node addresses must fall in)")),
                Arguments.of("bad network", http(",'registration':{'enabled':true,'allowedNetworks':['10.0.0.0/33']}", N1),
                        List.of("clusters[0].registration.allowedNetworks[0]: '10.0.0.0/33': prefix length 33 is over 32")),
                Arguments.of("hostname as network", http(",'registration':{'enabled':true,'allowedNetworks':['nodes.local']}", N1),
                        List.of("clusters[0].registration.allowedNetworks[0]: 'nodes.local' is not an IP address or CIDR block")),
                Arguments.of("ttl too short", http(",'registration':{'enabled':true,'allowedNetworks':['10.0.0.0/8'],'ttlMs':999}", N1),
                        List.of("clusters[0].registration.ttlMs: 999 out of range 1000..600000")),
                Arguments.of("maxNodes zero", http(",'registration':{'enabled':true,'allowedNetworks':['10.0.0.0/8'],'maxNodes':0}", N1),
                        List.of("clusters[0].registration.maxNodes: 0 out of range 1..1024")),
                Arguments.of("per-connection balance", http(",'balance':'per-connection'" + ON, N1),
                        List.of("clusters[0].balance: per-connection cannot be combined with registration (requests of "
                                + "one connection may name different contexts); use per-request")),
                Arguments.of("tcp cluster", j("{'admin':{'token':'test-token-0123456789'},'clusters':[{'name':'t',"
                        + "'mode':'tcp','listen':'127.0.0.1:8080','policy':'round-robin'" + ON + ",'nodes':[" + N1 + "]}]}"),
                        List.of("clusters[0].registration: only allowed for mode http")),
                Arguments.of("no nodes, registration off", http("", ""),
                        List.of("clusters[0].nodes: at least one node is required")),
                Arguments.of("contexts without registration", http("",
                        "{'name':'n1','address':'10.0.0.1:8080','contexts':['/app']}"),
                        List.of("clusters[0].nodes[0].contexts: only allowed when registration.enabled is true "
                                + "(contexts route by path there)")),
                Arguments.of("bad contexts", http(ON, "{'name':'n1','address':'10.0.0.1:8080','contexts':"
                        + "['app','/app/','/a//b','/a/../b','/a%20b','/ok']}"),
                        List.of("clusters[0].nodes[0].contexts[0]: 'app' must start with '/'",
                                "clusters[0].nodes[0].contexts[1]: '/app/' must not end with '/'",
                                "clusters[0].nodes[0].contexts[2]: '/a//b' has an empty, '.' or '..' segment",
                                "clusters[0].nodes[0].contexts[3]: '/a/../b' has an empty, '.' or '..' segment",
                                "clusters[0].nodes[0].contexts[4]: '/a%20b' may contain only letters, digits, '-', "
                                        + "'.', '_', '~' and '/'")),
                Arguments.of("empty contexts", http(ON, "{'name':'n1','address':'10.0.0.1:8080','contexts':[]}"),
                        List.of("clusters[0].nodes[0].contexts: 0 contexts, expected 1..32")),
                Arguments.of("short registration token", j("{'admin':{'token':'test-token-0123456789',"
                        + "'registrationToken':'short'},'clusters':[]}"),
                        List.of("admin.registrationToken: too short (5 characters); an admin token needs at least 16 "
                                + "characters, for example the output of `openssl rand -hex 24`")),
                Arguments.of("registration token equal to the admin token", j("{'admin':{'token':'test-token-0123456789',"
                        + "'registrationToken':'test-token-0123456789'},'clusters':[]}"),
                        List.of("admin.registrationToken: must differ from admin.token (it is handed to every node "
                                + "and may only register)")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bad")
    void refusedWithTheField(String what, String json, List<String> expected) throws Exception {
        assertEquals(expected, validator.validate(ConfigLoader.parse(json)));
    }
}
